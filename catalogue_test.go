package hands_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hands-dev/hands"
)

var update = flag.Bool("update", false, "rewrite golden files")

var today = regexp.MustCompile(`Today's date is \d{4}-\d{2}-\d{2}`)

// TestCatalogueGolden pins what the model sees of every tool of every
// profile: names, descriptions, schemas and metadata.
//
// Each profile is pinned twice: with the default limits, and with other
// limits (the "-limits" goldens), whose numbers the descriptions must state.
func TestCatalogueGolden(t *testing.T) {
	other := hands.Limits{MaxFileSize: 1 << 20, ReadLines: 500, LineChars: 300, BashTimeout: 30 * time.Second,
		BashMaxTimeout: 5 * time.Minute, BashOutputChars: 8000, TaskWait: 10 * time.Second}
	for _, c := range []struct {
		suffix string
		limits hands.Limits
	}{{"", hands.Limits{}}, {"-limits", other}} {
		for _, profile := range hands.Profiles() {
			catalogueGolden(t, profile+c.suffix, hands.Options{Profile: profile, Limits: c.limits})
		}
	}
}

func catalogueGolden(t *testing.T, name string, opts hands.Options) {
	{
		t.Run(name, func(t *testing.T) {
			opts.Roots = []string{t.TempDir()}
			rt, err := hands.New(opts)
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			got, err := hands.Catalogue(rt.ToolsFor(true))
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			// WebSearch states today's date; the golden does not change daily.
			got = today.ReplaceAll(got, []byte("Today's date is YYYY-MM-DD"))
			golden := filepath.Join("testdata", "catalogue", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestCatalogueGolden -update)", err)
			}
			if string(got) != string(want) {
				t.Errorf("catalogue of %s changed; review and run go test -run TestCatalogueGolden -update\n--- got ---\n%s", name, got)
			}
		})
	}
}
