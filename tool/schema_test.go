package tool_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/hands-dev/hands/tool"
)

// Schemas as other MCP servers send them: zod's draft-07 with definitions
// and $ref, pydantic's $defs, alternatives, bounds, an older draft.
var remoteSchemas = map[string]string{
	"bounds": `{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]},"n":{"type":"integer","minimum":1,"maximum":10},"f":{"type":"number","exclusiveMinimum":0},"s":{"type":"string","minLength":2,"maxLength":4,"pattern":"^[a-z]+$"},"l":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":2},"o":{"type":"object","properties":{"k":{"type":"boolean"}},"required":["k"],"additionalProperties":false},"m":{"type":"integer","multipleOf":2},"c":{"const":3}},"required":["a"],"additionalProperties":false}`,
	"zod":    `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"p":{"$ref":"#/definitions/P"},"q":{"$ref":"#/properties/p"}},"definitions":{"P":{"type":"object","properties":{"x":{"type":"integer"}},"required":["x"],"additionalProperties":false}},"required":["p"],"additionalProperties":false}`,
	"alts":   `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}]},"w":{"oneOf":[{"type":"string","const":"a"},{"type":"number"}]},"t":{"type":["string","null"]}}}`,
	"defs":   `{"type":"object","properties":{"d":{"$ref":"#/$defs/D"},"e":{"type":"array","items":{"$ref":"#/$defs/E"}}},"$defs":{"D":{"type":"string","enum":["one","two"]},"E":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}}}`,
	"draft4": `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}}`,
	"2019":   `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","properties":{"n":{"type":"integer"}},"dependentRequired":{"n":["m"]}}`,
	"custom": `{"$schema":"https://example.com/my-meta","type":"object","properties":{"n":{"type":"integer"}}}`,
	"more":   `{"type":"object","properties":{"kind":{"type":"string"}},"patternProperties":{"^x_":{"type":"integer"}},"additionalProperties":{"type":"string"},"if":{"properties":{"kind":{"const":"a"}},"required":["kind"]},"then":{"required":["a"]}}`,
	"self":   `{"type":"object","properties":{"node":{"$ref":"#/$defs/N"}},"$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"},"v":{"type":"integer"}}}}}`,
}

// TestRemoteSchemaProblems: the schema features other servers' tools use
// are checked, and each refusal names the parameter, the value and what
// was wanted.
func TestRemoteSchemaProblems(t *testing.T) {
	cases := []struct{ schema, args, want string }{
		{"bounds", `{"a":"x"}`, ""},
		{"bounds", `{}`, "missing required parameter a"},
		{"bounds", `{"a":"z"}`, `parameter a: "z" is not allowed, want one of "x", "y"`},
		{"bounds", `{"a":1}`, "parameter a: 1 has type integer, want string"},
		{"bounds", `{"a":"x","n":0}`, "parameter n: 0 is out of range, want >= 1"},
		{"bounds", `{"a":"x","n":11}`, "parameter n: 11 is out of range, want <= 10"},
		{"bounds", `{"a":"x","n":5.5}`, "parameter n: 5.5 has type number, want integer"},
		{"bounds", `{"a":"x","n":5.0}`, ""},
		{"bounds", `{"a":"x","n":1e400}`, "parameter n: 1e400 is out of range, want <= 10"},
		{"bounds", `{"a":"x","f":0}`, "parameter f: 0 is out of range, want > 0"},
		{"bounds", `{"a":"x","s":"A"}`, "parameter s: \"A\" is out of range, want at least 2 characters"},
		{"bounds", `{"a":"x","s":"abcdef"}`, "parameter s: \"abcdef\" is out of range, want at most 4 characters"},
		{"bounds", `{"a":"x","s":"AB"}`, `parameter s: "AB" is not allowed, want a string matching "^[a-z]+$"`},
		{"bounds", `{"a":"x","l":[]}`, "parameter l: [] is out of range, want at least 1 items"},
		{"bounds", `{"a":"x","l":["a","b","c"]}`, `parameter l: ["a","b","c"] is out of range, want at most 2 items`},
		{"bounds", `{"a":"x","l":["a",1]}`, "parameter l[1]: 1 has type integer, want string"},
		{"bounds", `{"a":"x","o":{"k":true,"z":1}}`, "unknown parameter z in o; the parameters are k"},
		{"bounds", `{"a":"x","o":{}}`, "missing required parameter k in o"},
		{"bounds", `{"a":"x","m":3}`, "parameter m: 3 is not allowed, want a multiple of 2"},
		{"bounds", `{"a":"x","c":4}`, "parameter c: 4 is not allowed, want 3"},
		// The shallowest first; there an unknown parameter before a missing one.
		{"bounds", `{"bogus":1,"o":{"k":1}}`, "unknown parameter bogus; the parameters are a, c, f, l, m, n, o, s"},
		{"zod", `{"p":{"x":1}}`, ""},
		{"zod", `{"p":{"x":"1"}}`, `parameter p.x: "1" has type string, want integer`},
		{"zod", `{"p":{}}`, "missing required parameter x in p"},
		{"zod", `{"p":{"x":1},"q":{"y":1}}`, "unknown parameter y in q; the parameters are x"},
		{"alts", `{"v":"s","w":1,"t":"x"}`, ""},
		{"alts", `{"v":true}`, "parameter v: true has type boolean, want one of string, integer"},
		{"alts", `{"w":"b"}`, `parameter w: "b" is not allowed, want "a"`},
		{"alts", `{"t":1}`, "parameter t: 1 has type integer, want string"},
		{"alts", `{"t":null}`, ""},
		{"defs", `{"d":"three"}`, `parameter d: "three" is not allowed, want one of "one", "two"`},
		{"defs", `{"e":[{"id":1},{"id":"x"}]}`, `parameter e[1].id: "x" has type string, want integer`},
		{"defs", `{"e":[{}]}`, "missing required parameter id in e[0]"},
		{"draft4", `{"n":1}`, ""},
		{"draft4", `{"n":0}`, "parameter n: 0 is out of range, want > 0"},
		{"2019", `{"n":1}`, "missing required parameter m"},
		{"custom", `{"n":"1"}`, `parameter n: "1" has type string, want integer`},
		{"more", `{"x_a":"s"}`, `parameter x_a: "s" has type string, want integer`},
		{"more", `{"zz":1}`, "parameter zz: 1 has type integer, want string"},
		{"more", `{"kind":"a"}`, "missing required parameter a"},
		{"more", `{"kind":"b"}`, ""},
		{"self", `{"node":{"next":{"next":{"v":"x"}}}}`, `parameter node.next.next.v: "x" has type string, want integer`},
	}
	for _, c := range cases {
		ch, err := tool.NewArgsChecker("remote", json.RawMessage(remoteSchemas[c.schema]))
		if err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		_, err = ch.Check("remote", json.RawMessage(c.args))
		got := ""
		if err != nil {
			var te *tool.Error
			if !errors.As(err, &te) || te.Code != tool.InvalidInput || te.Problem == nil {
				t.Errorf("%s %s: %v is not an INVALID_INPUT with a problem", c.schema, c.args, err)
				continue
			}
			got = strings.TrimPrefix(te.Message, "invalid arguments for remote: ")
		}
		if got != c.want {
			t.Errorf("%s %s:\n got %q\nwant %q", c.schema, c.args, got, c.want)
		}
	}
}

// TestRemoteSchemaRefused: a schema the validator cannot use is an error
// naming the tool, not a checker that lets everything through.
func TestRemoteSchemaRefused(t *testing.T) {
	for _, s := range []string{
		// References that loop without going into the value.
		`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"type":"object","properties":{"z":{"$ref":"#/$defs/A"}}}`,
		`{"$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}]}},"type":"object"}`,
		`{"type":"object","anyOf":[{"not":{"$ref":"#"}}]}`,
		`{"$id":"https://x.test/s","type":"object","properties":{"a":{"$anchor":"a","oneOf":[{"$ref":"https://x.test/s#a"}]}}}`,
		`{"type":"object","properties":{"a":{"pattern":"("}}}`, `{"type":"object","properties":{"a":{"$ref":"https://example.com/x.json"}}}`, `{"type":7}`, `[]`} {
		if _, err := tool.NewArgsChecker("remote", json.RawMessage(s)); err == nil || !strings.Contains(err.Error(), "input schema of remote") {
			t.Errorf("%s: err %v, want input schema of remote: ...", s, err)
		}
	}
	// A schema that refers to itself one level deeper into the value is
	// fine.
	if _, err := tool.NewArgsChecker("remote", json.RawMessage(remoteSchemas["self"])); err != nil {
		t.Errorf("self: %v", err)
	}
}

// FuzzRemoteSchemaArgs: any arguments against any of the remote schemas
// are accepted or refused with an INVALID_INPUT that carries its problem;
// never a panic.
func FuzzRemoteSchemaArgs(f *testing.F) {
	var names []string
	for n := range remoteSchemas {
		names = append(names, n)
	}
	checkers := map[string]*tool.ArgsChecker{}
	for _, n := range names {
		ch, err := tool.NewArgsChecker("remote", json.RawMessage(remoteSchemas[n]))
		if err != nil {
			f.Fatal(err)
		}
		checkers[n] = ch
	}
	for i := range names {
		for _, a := range []string{`{}`, `{"a":"x","n":0}`, `{"p":{"x":"1"}}`, `{"v":[1]}`, `{"e":[{"id":null}]}`, `{"node":{"next":1}}`, `{"n":1e999}`, `{"z":{"z":1}}`} {
			f.Add(uint8(i), []byte(a))
		}
	}
	f.Fuzz(func(t *testing.T, i uint8, raw []byte) {
		// Sorted lookup so that a corpus entry means the same schema each run.
		n := sortedNames(names)[int(i)%len(names)]
		_, err := checkers[n].Check("remote", raw)
		if err == nil {
			return
		}
		var te *tool.Error
		if !errors.As(err, &te) || te.Code != tool.InvalidInput || te.Problem == nil || te.Message == "" {
			t.Fatalf("%s %q: %v", n, raw, err)
		}
	})
}

func sortedNames(names []string) []string {
	out := append([]string(nil), names...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// FuzzRemoteSchema: another server's schema, whatever it is, either
// compiles or is refused, and checking arguments against it neither
// panics nor loops without end.
func FuzzRemoteSchema(f *testing.F) {
	for _, s := range remoteSchemas {
		f.Add([]byte(s), []byte(`{"a":"x","n":0,"p":{"x":"1"},"v":[1],"node":{"next":1}}`))
	}
	f.Add([]byte(`{"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"anyOf":[{"$ref":"#/$defs/A"}]}}}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		ch, err := tool.NewArgsChecker("remote", schema)
		if err != nil {
			return
		}
		ch.Check("remote", args)
	})
}
