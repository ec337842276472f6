package textedit

import (
	"strings"
	"testing"
)

// FuzzDiffRegions: diffed group by group (every span counted as far
// apart), the regions of ApplyAllParts give the diff of the whole text.
func FuzzDiffRegions(f *testing.F) {
	f.Add("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "b", "B", false, "i", "I\nJ", 1)
	f.Add("x\nx\nx\nx\nx\nx\nx\nx\n", "x", "y", true, "y\ny", "", 0)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14", "2\n", "", false, "14", "fourteen\n", 3)
	f.Add("a\nb", "a", "A", false, "b", "B", 2)
	f.Fuzz(func(t *testing.T, text, o1, n1 string, all1 bool, o2, n2 string, ctx int) {
		res, err := ApplyAllParts(text, []Edit{{Old: o1, New: n1, ReplaceAll: all1}, {Old: o2, New: n2, ReplaceAll: true}})
		if err != nil {
			return
		}
		ctx = abs(ctx) % 5
		want := Diff("f", text, strings.Join(res.Parts, ""), ctx)
		defer func(v int) { regionDiffSpan = v }(regionDiffSpan)
		regionDiffSpan = 0
		if got := DiffRegions("f", text, res.Regions, ctx); got != want {
			t.Fatalf("context %d, regions %+v:\nDiffRegions\n%s\nDiff\n%s", ctx, res.Regions, got, want)
		}
	})
}
