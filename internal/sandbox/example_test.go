package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hands-dev/hands/internal/sandbox"
)

func Example() {
	dir, _ := os.MkdirTemp("", "sandbox-example")
	defer os.RemoveAll(dir)

	s, err := sandbox.New([]string{dir}, []string{".env", "**/*.pem"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()

	// Resolve what the model asked for, relative to the working directory,
	// then act on the resolved path.
	p, err := s.Resolve(s.Roots()[0], "notes/todo.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	created, err := s.WriteFile(p, []byte("buy milk\n"), 0o644)
	fmt.Println("created:", created, err)
	fmt.Println("relative:", p.Rel, filepath.Base(p.Abs))

	for _, bad := range []string{"../../etc/passwd", ".env", "certs/key.pem"} {
		_, err := s.Resolve(s.Roots()[0], bad)
		fmt.Println(bad, "denied:", errors.Is(err, sandbox.ErrDenied))
	}
	// Output:
	// created: true <nil>
	// relative: notes/todo.txt todo.txt
	// ../../etc/passwd denied: true
	// .env denied: true
	// certs/key.pem denied: true
}
