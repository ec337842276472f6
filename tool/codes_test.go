package tool_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// TestCodesAreListed checks that every code declared in codes.go is in
// Codes, parses back from its name and marshals as its name.
func TestCodesAreListed(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "codes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "code" {
			return true
		}
		name, _ := strconv.Unquote(call.Args[0].(*ast.BasicLit).Value)
		declared++
		c, ok := tool.ParseCode(name)
		if !ok || c.String() != name {
			t.Errorf("code %s is declared but not in Codes", name)
		}
		b, _ := json.Marshal(c)
		var back tool.Code
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("code %s does not round-trip through JSON: %s, %v", name, b, err)
		}
		return true
	})
	if declared != len(tool.Codes()) {
		t.Errorf("%d codes declared, %d listed", declared, len(tool.Codes()))
	}
	var c tool.Code
	if err := json.Unmarshal([]byte(`"MADE_UP"`), &c); err == nil {
		t.Error("a made-up code unmarshals")
	}
}
