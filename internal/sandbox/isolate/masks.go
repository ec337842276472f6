package isolate

import (
	"path/filepath"
	"slices"
)

// masks lists, sorted (a directory before what it holds),
// what a command that starts now must find masked: the configured masks
// (secrets, denied paths), what a deny pattern matches in the roots now,
// and, in every network mode (netNS no longer matters), the UNIX sockets
// outside the writable trees but the reachable ones (sockets.go). It is the one mask step: the spawner covers
// them at its start, then, before each command, whatever of the list
// computed for that command is not covered yet (what appeared since, or
// came back after the server removed it, which detached its mask). The
// configured masks and the deny matches are not resolved here: the
// spawner's stat follows their links, and its mount does too, which
// costs a stat each, not a lstat of every component of each path. Paths
// that do not exist are left to the spawner, which skips them.
func (i *Isolator) masks(writable []string, netNS bool) []string {
	masks := slices.Clone(i.cfg.Mask)
	if i.cfg.MaskMatches != nil {
		masks = append(masks, i.cfg.MaskMatches()...)
	}
	out := make([]string, 0, len(masks))
	for _, m := range masks {
		if filepath.IsAbs(m) {
			out = append(out, filepath.Clean(m))
		}
	}
	if i.MasksUnixSockets() {
		// No way out through a UNIX socket file either, in any network
		// mode (sockets.go).
		out = append(out, i.socketMasks(writable, out)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
