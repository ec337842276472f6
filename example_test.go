package hands_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hands-dev/hands"
	"github.com/hands-dev/hands/tool"
)

// The library's main path: a runtime over a directory, a session, the tool
// definitions for the model, and the model's calls run as one batch.
func Example() {
	dir, _ := os.MkdirTemp("", "hands-example-")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("buy milk\ncall Bob\n"), 0o644)

	rt, err := hands.New(hands.Options{Roots: []string{dir}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close()
	sess, err := rt.NewSession()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sess.Close()

	fmt.Println("first tool:", rt.Tools()[0].Name)
	results := sess.Batch(context.Background(), []tool.Call{
		{ID: "1", Name: "view", Input: json.RawMessage(`{"path":"notes.txt"}`)},
		{ID: "2", Name: "view", Input: json.RawMessage(`{"path":"/etc/passwd"}`)},
	})
	fmt.Println(results[0].TextOf())
	fmt.Println(results[1].Code == hands.AccessDenied)
	// Output:
	// first tool: view
	//      1	buy milk
	//      2	call Bob
	// true
}
