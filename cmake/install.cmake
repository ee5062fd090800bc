# cmake/install.cmake: what `cmake --install` puts where, and the Debian package (issue 30).
#
#   <prefix>/bin/                  klinzha, klinzha-match, klinzha-gui, klinzha-gen, klinzha-tune
#   <prefix>/share/klinzha/www/    the page klinzha-gui serves (found as ../share/klinzha/www)
#   <prefix>/share/klinzha/nnue/   gen.sh, shuffle.py, train.py, pipeline.sh (the scripts find
#                                  ../../../bin/klinzha-gen and klinzha)
#   <prefix>/share/doc/klinzha/    README.md and docs/ (the rules, protocol, tools; pictures)
#   <prefix>/share/man/man1/       a manual page per program, from its --help (help2man)
#   <prefix>/lib/systemd/system/   klinzha-gui.service (disabled; state in /var/lib/klinzha)
#
# Every program finds what it needs relative to itself, so any prefix works. The package:
# `cpack -G DEB --config <build>/CPackConfig.cmake`, its dependencies computed from the
# libraries the programs link (dpkg-shlibdeps).
set(KLINZHA_PROGRAMS klinzha klinzha-match klinzha-gui klinzha-gen klinzha-tune)
install(TARGETS ${KLINZHA_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY tools/gui/www/ DESTINATION ${CMAKE_INSTALL_DATADIR}/klinzha/www)
install(PROGRAMS tools/nnue/gen.sh tools/nnue/train.py tools/nnue/shuffle.py tools/nnue/pipeline.sh
        DESTINATION ${CMAKE_INSTALL_DATADIR}/klinzha/nnue)
install(FILES README.md docs/rules.md docs/protocol.md docs/search.md docs/match.md docs/gui.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/img DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The systemd unit names the installed program by its full path, known only at install time
# (a prefix given to `cmake --install --prefix`, or /usr in the package).
install(CODE "
  set(KLINZHA_BINDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
  set(KLINZHA_DOCDIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}\")
  configure_file(\"${PROJECT_SOURCE_DIR}/tools/packaging/klinzha-gui.service.in\"
                 \"${PROJECT_BINARY_DIR}/generated/klinzha-gui.service\" @ONLY)
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\"
       TYPE FILE FILES \"${PROJECT_BINARY_DIR}/generated/klinzha-gui.service\")
")

# Manual pages from each program's --help and --version (Debian's help2man), at build time.
# Off in the sanitizer builds (no one installs them) and where help2man is missing.
find_program(KLINZHA_HELP2MAN help2man)
set(KLINZHA_MAN_DEFAULT OFF)
if(KLINZHA_HELP2MAN AND NOT KLINZHA_SANITIZE AND NOT KLINZHA_TSAN AND NOT KLINZHA_FUZZ)
  set(KLINZHA_MAN_DEFAULT ON)
endif()
option(KLINZHA_MANPAGES "Build the manual pages with help2man" ${KLINZHA_MAN_DEFAULT})
if(KLINZHA_MANPAGES)
  if(NOT KLINZHA_HELP2MAN)
    message(FATAL_ERROR "KLINZHA_MANPAGES needs help2man (apt install help2man)")
  endif()
  set(klinzha_desc_klinzha "engine for Klin Zha and Romulan Heart (UCI dialect)")
  set(klinzha_desc_klinzha-match "engine-vs-engine matches and tournaments for Klin Zha")
  set(klinzha_desc_klinzha-gui "rooms where people and engines play Klin Zha in the browser")
  set(klinzha_desc_klinzha-gen "training data for the klinzha network by self-play")
  set(klinzha_desc_klinzha-tune "tunes the klinzha evaluation by the Texel method")
  set(klinzha_man_pages)
  foreach(prog ${KLINZHA_PROGRAMS})
    set(page ${PROJECT_BINARY_DIR}/man/${prog}.1)
    add_custom_command(OUTPUT ${page}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
      COMMAND ${KLINZHA_HELP2MAN} --no-info --no-discard-stderr --section 1
              --name "${klinzha_desc_${prog}}" --output ${page} $<TARGET_FILE:${prog}>
      DEPENDS ${prog}
      COMMENT "klinzha: manual page ${prog}(1)"
      VERBATIM)
    list(APPEND klinzha_man_pages ${page})
  endforeach()
  add_custom_target(klinzha_man ALL DEPENDS ${klinzha_man_pages})
  install(FILES ${klinzha_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# The Debian package (cpack -G DEB).
set(CPACK_PACKAGE_NAME klinzha)
set(CPACK_PACKAGE_VENDOR "klinzha")
set(CPACK_PACKAGE_CONTACT "klinzha developers <klinzha@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "engine, match runner and web rooms for Klin Zha (Klingon chess)")
set(CPACK_PACKAGE_DESCRIPTION
    "klinzha plays Klin Zha and its three-player form Romulan Heart, a chess game of an \
81-cell triangular board. It speaks a UCI dialect, so GUIs and tournament runners can drive \
it. The package holds the engine (klinzha), the match runner (klinzha-match: two and three \
players, SPRT, the Italian tournament), the web rooms (klinzha-gui, with a systemd unit, \
disabled), the network's data generator and trainer (klinzha-gen, train.py) and the \
evaluation tuner (klinzha-tune), with the rules and every tool documented.")
# A Debian version: the project version, and the commit where it is not a tag's build.
string(REGEX REPLACE "-" "." KLINZHA_DEB_VERSION "${KLINZHA_VERSION_STRING}")
set(CPACK_PACKAGE_VERSION "${KLINZHA_DEB_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch, python3-numpy, parallel")
include(CPack)
