package isolate

import "testing"

func FuzzParseNetwork(f *testing.F) {
	for _, s := range []string{"on", "off", "allow=a.com,*.b.org", "allow=", "allow=*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		n, err := ParseNetwork(v)
		if err != nil {
			return
		}
		if n.Mode == "allow" && len(n.Allow) == 0 {
			t.Errorf("%q: allow with no domain", v)
		}
		for _, d := range n.Allow {
			if checkDomain(d) != nil {
				t.Errorf("%q: accepted the bad domain %q", v, d)
			}
		}
	})
}
