// SystemCalls: errno as a value (`SystemError`: the call, the path, the
// code and strerror's text) and the one EINTR retry, so every system call's
// failure reads the same and none is lost to an interrupted call.
//
// Imports: Glibc only. Never another Chime module: the store, the
// scheduler and the command line all stand on it.
