// SeededRandom: the seeded generator the randomised tests and the
// benchmarks share, so that a failing seed can be run again.
//
// Imports: the standard library only; nothing of Chime.
