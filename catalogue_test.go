package hands_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/hands-dev/hands"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCatalogueGolden pins what the model sees of every tool of every
// profile: names, descriptions, schemas and metadata.
func TestCatalogueGolden(t *testing.T) {
	for _, profile := range hands.Profiles() {
		t.Run(profile, func(t *testing.T) {
			rt, err := hands.New(hands.Options{Roots: []string{t.TempDir()}, Profile: profile})
			if err != nil {
				t.Fatal(err)
			}
			defer rt.Close()
			got, err := hands.Catalogue(rt.Tools())
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "catalogue", profile+".json")
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
				t.Errorf("catalogue of %s changed; review and run go test -run TestCatalogueGolden -update\n--- got ---\n%s", profile, got)
			}
		})
	}
}
