package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// encodeLineMatches checks that encodeLine writes msg as EncodeMessage
// does, followed by a newline.
func encodeLineMatches(t *testing.T, msg jsonrpc.Message) {
	t.Helper()
	want, werr := jsonrpc.EncodeMessage(msg)
	got, gerr := encodeLine(msg)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("EncodeMessage error %v, encodeLine error %v", werr, gerr)
	}
	if werr != nil {
		return
	}
	defer putLine(got)
	if !bytes.Equal(*got, append(want, '\n')) {
		t.Fatalf("encodeLine wrote\n%q\nEncodeMessage\n%q", *got, want)
	}
}

// TestEncodeLine: replies with a result (number and string ids), error
// replies, requests and notifications are written as the SDK writes
// them, including a result with characters JSON escapes.
func TestEncodeLine(t *testing.T) {
	id := func(v any) jsonrpc.ID {
		i, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	result := json.RawMessage(`{"content":[{"type":"text","text":"a\tb \"c\" <d> & \u2028 é\n"}],"isError":false}`)
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Response{ID: id(float64(7)), Result: result},
		&jsonrpc.Response{ID: id(float64(-1)), Result: json.RawMessage(`{}`)},
		&jsonrpc.Response{ID: id(float64(1 << 53)), Result: json.RawMessage(`[1,2]`)},
		&jsonrpc.Response{ID: id("req-<1>&"), Result: result},
		&jsonrpc.Response{ID: id(float64(3)), Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad <input>"}},
		&jsonrpc.Response{ID: id(float64(4))},
		&jsonrpc.Request{ID: id(float64(9)), Method: "roots/list", Params: json.RawMessage(`{"a":1}`)},
		&jsonrpc.Request{Method: "notifications/progress", Params: json.RawMessage(`{"progress":1}`)},
	} {
		encodeLineMatches(t, msg)
	}
}

// FuzzEncodeLine: a reply whose result the SDK encoded (a text of any
// bytes, under any number id) is written as EncodeMessage writes it.
func FuzzEncodeLine(f *testing.F) {
	f.Add(int64(1), "hello\n")
	f.Add(int64(-42), "tabs\tand \"quotes\" <html> & \x00 \xff\u2028")
	f.Add(int64(1<<62), "")
	f.Fuzz(func(t *testing.T, n int64, text string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf) // as the SDK encodes a result
		enc.SetEscapeHTML(false)
		if err := enc.Encode(map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}); err != nil {
			t.Fatal(err)
		}
		id, err := jsonrpc.MakeID(float64(n))
		if err != nil {
			t.Skip()
		}
		encodeLineMatches(t, &jsonrpc.Response{ID: id, Result: bytes.TrimRight(buf.Bytes(), "\n")})
	})
}
