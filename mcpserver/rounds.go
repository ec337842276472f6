//lint:file-ignore SA1019 sampling and logging are deprecated as of protocol version 2026-07-28 (SEP-2577) but remain how an MCP server reaches older clients during the deprecation window.

package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxRounds bounds the questions one call may put to the client in turn
// (a permission, then the user's answer, then the client's model).
const maxRounds = 4

// roundTrips reports whether the client of ss takes input requests in a
// call's result and calls again (protocol 2026-07-28, SEP-2322); older
// clients are asked with server requests while the call waits. A client
// that never initialized speaks the stateless protocol.
func roundTrips(ss *mcp.ServerSession) bool {
	if ss == nil {
		return true
	}
	ip := ss.InitializeParams()
	return ip == nil || ip.ProtocolVersion >= "2026-07-28"
}

// encodeState carries the answers a call has had so far to its next
// round: the client echoes the request state back with the new answers,
// so a call that asks twice (a permission, then its own question) keeps
// the first answer. The client is the one who answered, so it can claim
// nothing through the state it could not claim by answering.
func encodeState(r mcp.InputResponseMap) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// decodeState reads what encodeState wrote.
func decodeState(s string) (mcp.InputResponseMap, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("requestState is not one this server gave: %w", err)
	}
	var r mcp.InputResponseMap
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("requestState is not one this server gave: %w", err)
	}
	return r, nil
}

// fulfil asks an older client each input request directly, while the
// call waits.
func fulfil(ctx context.Context, ss *mcp.ServerSession, needed mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	out := mcp.InputResponseMap{}
	for _, key := range sortedKeys(needed) {
		var (
			r   mcp.InputResponse
			err error
		)
		switch p := needed[key].(type) {
		case *mcp.ElicitParams:
			r, err = ss.Elicit(ctx, p)
		case *mcp.CreateMessageParams:
			r, err = ss.CreateMessage(ctx, p)
		case *mcp.CreateMessageWithToolsParams:
			r, err = ss.CreateMessageWithTools(ctx, p)
		default:
			err = fmt.Errorf("cannot ask the client for %T", p)
		}
		if err != nil {
			return nil, fmt.Errorf("asking the client (%s): %w", key, err)
		}
		out[key] = r
	}
	return out, nil
}

func sortedKeys(m mcp.InputRequestMap) []string {
	return slices.Sorted(maps.Keys(m))
}
