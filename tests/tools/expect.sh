# tests/tools/expect.sh: sourced by the tools' test scripts. expect TEXT: PASS when the
# variable $out holds TEXT (a fixed string), else FAIL and failed=1.
failed=0
expect() {
  if grep -qF -- "$1" <<< "$out"; then echo "PASS: $1"; else echo "FAIL: $1"; failed=1; fi
}
