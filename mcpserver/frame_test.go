package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

var messageSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"view","arguments":{"path":"a"}}}`,
	`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	`{"jsonrpc":"2.0","id":3,"result":{}}`,
	`{"jsonrpc":"2.0","id":3,"error":{"code":1,"message":"x"}}`,
	`[{"jsonrpc":"2.0","id":1,"method":"x"}]`,
	`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`,
	`{"id":1,"method":"x"}`,
	`{"jsonrpc":"2.0","id":1e3,"method":"x"}`,
	`{"jsonrpc":"2.0","id":-0,"method":"x"}`,
	"\x00\x00",
	`{"jsonrpc":"2.0","id":1,"method":"x","params":[[[[[[]]]]]]}`,
	`{"jsonrpc":"2.0","id":1,"method":"x","params":"s"}`,
	`{"jsonrpc":"2.0","id":1,"method":"x"} trailing`,
	`{"jsonrpc":"2.0","id":1,"JSONRPC":"1.0","method":"x"}`,
	`{"jsonrpc":"2.0","jsonrpc":"1.0","id":1,"method":"x"}`,
	`"\ud800"`,
	`{"jsonrpc":"2.0","Id":5,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":5,"Method":"tools/list"}`,
	`{"JSONRPC":"2.0","id":5,"method":"tools/list"}`,
}

// FuzzDecodeMessage checks that any input is either a message the SDK
// encodes again or a refusal whose reply is a JSON-RPC error, never both,
// never a panic.
func FuzzDecodeMessage(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msg, bad := decodeMessage(data)
		if (msg == nil) == (bad == nil) {
			t.Fatalf("%q: message %v and refusal %v", data, msg, bad)
		}
		if bad != nil {
			var r struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   *jsonrpc.Error  `json:"error"`
			}
			reply := errorReply(bad)
			if err := json.Unmarshal(reply, &r); err != nil || r.JSONRPC != "2.0" || r.ID == nil || r.Error == nil ||
				(r.Error.Code != jsonrpc.CodeParseError && r.Error.Code != jsonrpc.CodeInvalidRequest) {
				t.Fatalf("%q: reply %s", data, reply)
			}
			return
		}
		if _, err := jsonrpc.EncodeMessage(msg); err != nil {
			t.Fatalf("%q: decoded %#v does not encode: %v", data, msg, err)
		}
		// What the stdio connection waits on must be what the SDK read:
		// a call by its exact id member.
		var exact map[string]json.RawMessage
		if err := json.Unmarshal(data, &exact); err != nil {
			t.Fatalf("%q accepted but not an object: %v", data, err)
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() != (exact["id"] != nil) {
			t.Fatalf("%q: the SDK read call %v, the message has id %s", data, req.IsCall(), exact["id"])
		}
	})
}

// FuzzFrameReader splits random input with a small limit and checks each
// line against a plain split: lines within the limit come back whole,
// longer ones as their start and length.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("a\nbb\r\nccc"), uint8(2))
	f.Add([]byte(strings.Repeat("x", 300)+"\nshort\n"), uint8(10))
	f.Add([]byte("\n\n\r\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		fr := &frameReader{r: bufio.NewReaderSize(bytes.NewReader(data), 16), limit: int64(limit)}
		want := bytes.Split(data, []byte("\n"))
		if len(want[len(want)-1]) == 0 {
			want = want[:len(want)-1]
		}
		for i, w := range want {
			line, size, over, err := fr.next()
			if err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
			if i < len(want)-1 || bytes.HasSuffix(data, []byte("\n")) {
				w = bytes.TrimSuffix(w, []byte("\r"))
			}
			switch {
			case int64(len(w)) > int64(limit)+1:
				// Whatever the line ending, a line this long is over.
				if !over || !bytes.HasPrefix(w, line) || len(line) > headSize {
					t.Fatalf("line %d %q: got %q over %v size %d", i, w, line, over, size)
				}
			case !over && !bytes.Equal(line, w):
				t.Fatalf("line %d: got %q, want %q", i, line, w)
			case over && size <= int64(limit):
				t.Fatalf("line %d: over at size %d, limit %d", i, size, limit)
			}
		}
		if _, _, _, err := fr.next(); err != io.EOF {
			t.Fatalf("after the last line: %v", err)
		}
	})
}

func TestOriginAllowed(t *testing.T) {
	s := &Server{http: HTTPOptions{AllowOrigins: []string{"https://app.example", "http://tool.example:8080/"}}}
	for origin, want := range map[string]bool{
		"":                          true,
		"http://localhost":          true,
		"http://localhost:5173":     true,
		"https://127.0.0.1:8443":    true,
		"http://127.1.2.3":          true,
		"http://[::1]:3000":         true,
		"https://app.example":       true,
		"HTTPS://APP.EXAMPLE":       true,
		"http://tool.example:8080":  true,
		"http://tool.example":       false,
		"http://app.example":        false,
		"https://app.example:444":   false,
		"http://evil.example":       false,
		"null":                      false,
		"file://":                   false,
		"http://localhost.evil.com": false,
		"http://10.0.0.1":           false,
		"ws://localhost":            false,
		"http://localhost/x":        false,
	} {
		if got := s.originAllowed(origin); got != want {
			t.Errorf("origin %q: allowed %v, want %v", origin, got, want)
		}
	}
	for _, bad := range []string{"app.example", "https://", "https://a.example/path", "ftp://a.example", "https://u@a.example", "*"} {
		if CheckOrigin(bad) == nil {
			t.Errorf("CheckOrigin(%q) accepted it", bad)
		}
	}
	for _, good := range []string{"https://a.example", "http://a.example:8080", "https://a.example/"} {
		if err := CheckOrigin(good); err != nil {
			t.Errorf("CheckOrigin(%q): %v", good, err)
		}
	}
}

// FuzzDecodeRequestIsTheSDKs checks that a message decodeRequest decodes
// is what jsonrpc.DecodeMessage decodes from it, member for member, among
// the messages checkDepth lets through (as decodeMessage does first).
func FuzzDecodeRequestIsTheSDKs(f *testing.F) {
	for _, s := range messageSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","id":"\u00e9\ud800x","method":"a\u0000b","params":{"a":[1,2.5,"x"],"b":null}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":null}`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\" : { \"a\" :\t1 } }\n"))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"x","id":9007199254740993}`))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"x","id":1.5}`))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"method\":\"\xff\",\"id\":\"\xfe\"}"))
	for _, n := range []int{999, 1000} {
		f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if checkDepth(data) != nil {
			return
		}
		req, ok := decodeRequest(data)
		if !ok {
			return
		}
		msg, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			t.Fatalf("%q: decoded here as %#v, the SDK refuses it: %v", data, req, err)
		}
		sdk, isReq := msg.(*jsonrpc.Request)
		if !isReq || sdk.ID != req.ID || sdk.Method != req.Method || !bytes.Equal(sdk.Params, req.Params) ||
			(sdk.Params == nil) != (req.Params == nil) || sdk.Extra != nil {
			t.Fatalf("%q: decoded here as %#v, by the SDK as %#v", data, req, msg)
		}
	})
}
