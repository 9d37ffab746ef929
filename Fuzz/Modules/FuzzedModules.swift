// No code: the target depends on every module the fuzz targets test, so
// that `contrib/fuzz` compiles them all in one invocation (two at a time on
// two cores, where one target after another kept one core busy), then links
// each target on its own.
