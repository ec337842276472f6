package search_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hands-dev/hands/internal/match"
	"github.com/hands-dev/hands/internal/search"
)

// Example greps a directory the way the grep tool does: compile the
// pattern, search, render like ripgrep.
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# main\n"), 0o644)

	m, err := match.Compile(`func \w+\(`, match.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := search.Grep(context.Background(), search.Options{
		Paths:   []string{dir},
		Matcher: m,
		Types:   []string{"go"},
		After:   1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	search.Render(os.Stdout, res.Files, search.RenderOptions{
		LineNumbers: true,
		Context:     true,
		Path:        func(p string) string { r, _ := filepath.Rel(dir, p); return r },
	})
	// Output:
	// main.go:3:func main() {
	// main.go-4-	println("hi")
}

// ExampleGlob lists files newest first.
func ExampleGlob() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "b", "x.go"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "y.go"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "z.txt"), nil, 0o644)

	res, err := search.Glob(context.Background(), search.GlobOptions{Paths: []string{dir}, Pattern: "**/*.go"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range res.Entries {
		r, _ := filepath.Rel(dir, e.Path)
		fmt.Println(filepath.ToSlash(r))
	}
	// Unordered output:
	// a/b/x.go
	// y.go
}
