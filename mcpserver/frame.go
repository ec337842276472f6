package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// defaultMaxRequestSize is the largest JSON-RPC message read when
// Options.MaxRequestSize is zero: room for a write of the largest file the
// tools accept with its JSON escapes (twice its size), plus 1 MiB for the
// rest of the message — 21 MiB at the default 10 MiB file size. The SDK
// holds several copies of a message while decoding it (the server peaks
// at about ten times a large message's size), so the limit is kept near
// what a tool can use.
func defaultMaxRequestSize(maxFileSize int64) int64 {
	return 2*maxFileSize + 1<<20
}

// maxDepth is the deepest nesting of objects and arrays a message may have:
// the SDK's decoder refuses anything deeper, so it is refused here first,
// with a reply.
const maxDepth = 1000

// maxExactID is the largest integer id that survives the SDK's decoding
// through float64 unchanged.
const maxExactID = 1 << 53

// badMessage is a message refused before the SDK sees it: the JSON-RPC
// error to answer with, and the id to answer to (zero when it could not be
// read).
type badMessage struct {
	id  jsonrpc.ID
	err *jsonrpc.Error
}

func (b *badMessage) Error() string { return b.err.Message }

func parseError(id jsonrpc.ID, format string, args ...any) *badMessage {
	return &badMessage{id: id, err: &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "parse error: " + fmt.Sprintf(format, args...)}}
}

func invalidRequest(id jsonrpc.ID, format string, args ...any) *badMessage {
	return &badMessage{id: id, err: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "invalid request: " + fmt.Sprintf(format, args...)}}
}

// tooLarge is the refusal of a message longer than limit bytes.
func tooLarge(id jsonrpc.ID, size, limit int64, complete bool) *badMessage {
	got := fmt.Sprintf("%d bytes", size)
	if !complete {
		got = fmt.Sprintf("more than %d bytes", size)
	}
	return invalidRequest(id, "message of %s is larger than the limit of %d bytes (%s); send a smaller message, or start the server with a larger --max-request-size",
		got, limit, humanSize(limit))
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return strconv.FormatInt(n, 10)
}

// errorReply encodes the JSON-RPC response that refuses a message, with
// "id": null when the id could not be read (the SDK's encoder would leave
// the member out).
func errorReply(b *badMessage) []byte {
	data, err := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", b.id.Raw(), b.err})
	if err != nil {
		// A string or integer id and a plain error always encode.
		panic(err)
	}
	return data
}

// decodeMessage checks one JSON-RPC message, data, more strictly than the
// SDK (whose transports close the connection on what it refuses) and
// decodes it. A message the SDK would misread is refused too: a batch, an
// id that is null, fractional or too large for a float64, a missing or
// wrong "jsonrpc" member, params that are not structured.
func decodeMessage(data []byte) (jsonrpc.Message, *badMessage) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, invalidRequest(jsonrpc.ID{}, "empty message; send one JSON-RPC object")
	}
	if err := checkDepth(data); err != nil {
		return nil, err
	}
	if data[0] == '[' {
		if !json.Valid(data) {
			return nil, parseError(jsonrpc.ID{}, "%v", syntaxError(data))
		}
		return nil, invalidRequest(jsonrpc.ID{}, "JSON-RPC batches (arrays) are not supported (MCP removed them in 2025-06-18); send each message as its own object")
	}
	var env envelope
	if err := json.Unmarshal(data, &env); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return nil, invalidRequest(jsonrpc.ID{}, "a JSON-RPC message is a JSON object, got a JSON %s", typeErr.Value)
		}
		// Answer the request when its id can still be read.
		return nil, parseError(idFromPrefix(data[:min(len(data), headSize)]), "%v", err)
	}
	if data[0] != '{' {
		return nil, invalidRequest(jsonrpc.ID{}, "a JSON-RPC message is a JSON object, got null")
	}
	id, idErr := readID(env.ID)
	if idErr != "" {
		return nil, invalidRequest(jsonrpc.ID{}, "%s", idErr)
	}
	if v := env.JSONRPC; string(v) != `"2.0"` {
		if v == nil {
			return nil, invalidRequest(id, `the "jsonrpc" member is missing; every message has "jsonrpc":"2.0"`)
		}
		return nil, invalidRequest(id, `"jsonrpc" is %s; it must be "2.0"`, clip(v))
	}
	switch {
	case env.Method != nil:
		if env.Method[0] != '"' {
			return nil, invalidRequest(id, `"method" is %s; it must be a string`, clip(env.Method))
		}
		if p := env.Params; p != nil && p[0] != '{' && p[0] != '[' && string(p) != "null" {
			return nil, invalidRequest(id, `"params" is %s; it must be an object`, clip(p))
		}
	case env.Result != nil || env.Error != nil:
		if !id.IsValid() {
			return nil, invalidRequest(id, "a response has the id of the request it answers")
		}
		if env.Result != nil && env.Error != nil {
			return nil, invalidRequest(id, `a response has "result" or "error", not both`)
		}
	default:
		return nil, invalidRequest(id, `no "method": a request or notification names its method, e.g. "method":"tools/list"`)
	}
	var msg jsonrpc.Message
	if req, ok := decodeRequest(data); ok {
		msg = req
	} else {
		var err error
		if msg, err = jsonrpc.DecodeMessage(data); err != nil {
			return nil, invalidRequest(id, "%v", err)
		}
	}
	// encoding/json matched member names regardless of case, the SDK does
	// not: both must have read the same message.
	var sameID, sameKind bool
	switch m := msg.(type) {
	case *jsonrpc.Request:
		sameID, sameKind = m.ID == id, env.Method != nil
	case *jsonrpc.Response:
		sameID, sameKind = m.ID == id, env.Method == nil
	}
	if !sameID || !sameKind {
		return nil, invalidRequest(jsonrpc.ID{}, `member names are lower case: "jsonrpc", "id", "method", "params", "result", "error"`)
	}
	return msg, nil
}

// envelope holds the members of a message as they stand in its text:
// checking a message copies none of its (possibly large) params.
type envelope struct {
	JSONRPC member `json:"jsonrpc"`
	ID      member `json:"id"`
	Method  member `json:"method"`
	Params  member `json:"params"`
	Result  member `json:"result"`
	Error   member `json:"error"`
}

// member is a member's value, aliasing the message; nil when absent.
type member []byte

func (m *member) UnmarshalJSON(b []byte) error {
	*m = b
	return nil
}

// readID reads an id member, or says why it cannot be answered to.
func readID(raw []byte) (jsonrpc.ID, string) {
	const want = "must be a string or an integer"
	switch {
	case raw == nil:
		return jsonrpc.ID{}, ""
	case string(raw) == "null":
		return jsonrpc.ID{}, `"id" is null; it ` + want + " (leave it out for a notification)"
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonrpc.ID{}, fmt.Sprintf(`"id": %v`, err)
		}
		return mustID(s), ""
	case raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9':
		n, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || n > maxExactID || n < -maxExactID {
			return jsonrpc.ID{}, fmt.Sprintf(`"id" is %s; it %s between %d and %d`, clip(raw), want, -maxExactID, maxExactID)
		}
		return mustID(float64(n)), ""
	}
	return jsonrpc.ID{}, fmt.Sprintf(`"id" is %s; it %s`, clip(raw), want)
}

// mustID makes an id of a string or an exactly representable integer.
func mustID(v any) jsonrpc.ID {
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		panic(err)
	}
	return id
}

// clip shortens a JSON value quoted in an error message.
func clip(raw []byte) string {
	if len(raw) > 40 {
		return string(raw[:40]) + "…"
	}
	return string(raw)
}

// checkDepth refuses data nested deeper than maxDepth, in one pass that
// skips strings.
func checkDepth(data []byte) *badMessage {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > maxDepth {
				return parseError(jsonrpc.ID{}, "JSON nested deeper than %d levels", maxDepth)
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}

// syntaxError is the error json.Unmarshal reports for invalid data.
func syntaxError(data []byte) error {
	var v json.RawMessage
	return json.Unmarshal(data, &v)
}

// idFromPrefix reads a top-level "id" from the start of a message too large
// to read whole, so the refusal can answer the request it refuses. It gives
// up at the first value it cannot skip within prefix.
func idFromPrefix(prefix []byte) jsonrpc.ID {
	dec := json.NewDecoder(bytes.NewReader(prefix))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return jsonrpc.ID{}
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return jsonrpc.ID{}
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return jsonrpc.ID{}
		}
		if key == "id" {
			id, _ := readID(v)
			return id
		}
	}
	return jsonrpc.ID{}
}
