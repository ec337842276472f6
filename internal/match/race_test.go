//go:build race

package match

// raceEnabled is set when the race detector is on: sync.Pool then drops
// items at random, so allocation counts are meaningless.
const raceEnabled = true
