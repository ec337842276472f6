package mcpserver

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	segjson "github.com/segmentio/encoding/json"
)

// wireRequest is the SDK's own decoding of a message (jsonrpc2's
// wireDecode), member for member, with the SDK's decoder and flags.
type wireRequest struct {
	VersionTag string          `json:"jsonrpc"`
	ID         any             `json:"id,omitempty"`
	Method     json.RawMessage `json:"method"`
	Params     json.RawMessage `json:"params,omitempty"`
	Result     json.RawMessage `json:"result,omitempty"`
	Error      *jsonrpc.Error  `json:"error,omitempty"`
}

// decodeRequest is jsonrpc.DecodeMessage for a request or notification
// that decodes without error, of a message checkDepth let through (the
// SDK refuses the same depths), to the SDK's letter: the same
// decoder (segmentio's), the same flags (member names matched exactly),
// the same checks. It skips what the SDK's copy costs every message — a
// 32 KiB buffer the SDK's decoder allocates, the message copied into it
// and parsed twice — and leaves everything else to the SDK: ok is false
// for a response and for any message it would refuse, which
// jsonrpc.DecodeMessage then decodes or refuses in its own words
// (FuzzDecodeRequestIsTheSDKs checks the two agree).
func decodeRequest(data []byte) (_ *jsonrpc.Request, ok bool) {
	var w wireRequest
	rest, err := segjson.Parse(data, &w, segjson.DontMatchCaseInsensitiveStructFields)
	if err != nil || len(bytes.TrimSpace(rest)) != 0 {
		return nil, false
	}
	if w.VersionTag != "2.0" || len(w.Method) == 0 {
		return nil, false
	}
	id, err := jsonrpc.MakeID(w.ID)
	if err != nil {
		return nil, false
	}
	var method string
	if _, err := segjson.Parse(w.Method, &method, segjson.DontMatchCaseInsensitiveStructFields); err != nil {
		return nil, false
	}
	return &jsonrpc.Request{ID: id, Method: method, Params: w.Params}, true
}
