package coord

import (
	"regexp"
	"strings"
	"testing"
)

// idPattern is what validID checks, as the regexp it replaces.
var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

func TestValidID(t *testing.T) {
	for _, c := range []struct {
		id   string
		want bool
	}{
		{"a", true}, {"loop-1_B", true}, {strings.Repeat("x", 128), true},
		{"", false}, {strings.Repeat("x", 129), false}, {"a.>", false}, {"a b", false},
		{"*", false}, {"é", false}, {"a\n", false},
	} {
		if got := validID(c.id); got != c.want {
			t.Errorf("validID(%q) = %v, want %v", c.id, got, c.want)
		}
	}
}

// FuzzValidID checks validID against the regexp it stands for.
func FuzzValidID(f *testing.F) {
	for _, s := range []string{"a", "a.>", "", strings.Repeat("z", 128), strings.Repeat("z", 129), "x\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if got, want := validID(id), idPattern.MatchString(id); got != want {
			t.Fatalf("validID(%q) = %v, the regexp says %v", id, got, want)
		}
	})
}
