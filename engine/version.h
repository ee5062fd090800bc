// engine/version.h: the project's one version, shared by every program (`--version`, the
// UCI `id name`, the Debian package). Source: issue 30.
#pragma once

namespace klinzha {

/// The version string, e.g. `0.1.0+gc684716` (a build of a git tree: the project's version
/// and the commit; `.dirty` when tracked files were changed), `0.2.0` (a build of the tag
/// v0.2.0), or the bare project version where there was no git tree. Written at build time
/// by cmake/version.cmake. Never throws; the pointer is to static storage.
const char* version();

}  // namespace klinzha
