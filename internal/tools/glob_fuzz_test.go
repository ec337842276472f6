package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzGlobBase checks the split of a glob into a directory and a pattern:
// the pattern left is never absolute and never climbs with .., and the
// directory is absolute whenever the glob was.
func FuzzGlobBase(f *testing.F) {
	for _, s := range []string{"*.go", "/etc/*", "../*", "**/../../*", "src/../*.go", "/", "", "a/b/[c]/..", `\`, "//x//*"} {
		f.Add("/root", s)
	}
	f.Fuzz(func(t *testing.T, dir, pattern string) {
		base, rest, terr := globBase(dir, pattern)
		if terr != nil {
			return
		}
		if filepath.IsAbs(pattern) && !filepath.IsAbs(base) {
			t.Errorf("%q: absolute glob gave directory %q", pattern, base)
		}
		if rest != pattern && (filepath.IsAbs(rest) || strings.HasPrefix(rest, "../") || rest == "..") {
			t.Errorf("%q: pattern left %q climbs", pattern, rest)
		}
	})
}
