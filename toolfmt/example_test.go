package toolfmt_test

import (
	"encoding/json"
	"fmt"

	"github.com/hands-dev/hands/tool"
	"github.com/hands-dev/hands/toolfmt"
)

// A Go agent hands a Runtime's tools (rt.Tools()) to a model in the shape
// of its API's request.
func ExampleOpenAI() {
	infos := []tool.Info{{
		Name:        "view",
		Description: "Reads a file.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
	}}
	b, _ := json.Marshal(toolfmt.OpenAI(infos))
	fmt.Println(string(b))
	// Output:
	// [{"type":"function","function":{"name":"view","description":"Reads a file.","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}]
}
