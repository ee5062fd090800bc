# tests/tools/expect.sh: sourced by the tools' test scripts. expect TEXT: PASS when the
# variable $out holds TEXT (a fixed string), else FAIL and failed=1.
failed=0
expect() {
  if grep -qF -- "$1" <<< "$out"; then echo "PASS: $1"; else echo "FAIL: $1"; failed=1; fi
}
# expect_no_klinzha TOOL.py ARGS...: the tool run with --klinzha pointing nowhere must fail
# with a message naming the path (not crash, not succeed); PASS or FAIL and failed=1.
expect_no_klinzha() {
  local tool="$1" err="${TMPDIR:-/tmp}/$(basename "$1").err"
  shift
  if python3 "$tool" "$@" --klinzha /nonexistent/klinzha > /dev/null 2> "$err"; then
    echo "FAIL: $(basename "$tool"): a missing klinzha was not an error"; failed=1
  elif grep -q "cannot run /nonexistent/klinzha" "$err"; then
    echo "PASS: $(basename "$tool"): a missing klinzha is an error with a message"
  else
    echo "FAIL: $(basename "$tool"): no message for a missing klinzha"; failed=1
  fi
}
