//lint:file-ignore SA1019 sampling is deprecated as of protocol version 2026-07-28 (SEP-2577) but remains how an MCP server reaches the client's model during the deprecation window.

package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hands-dev/hands/model"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// samplingInput names the input request that asks the client's model.
const samplingInput = "sampling"

// samplingMaxTokens bounds a sampled answer: web_fetch asks for a concise
// one.
const samplingMaxTokens = 4096

// samplingModel asks the client's model through MCP sampling
// (sampling/createMessage). The client decides which model answers and may
// show the request to its user, who may decline.
type samplingModel struct{ ss *mcp.ServerSession }

var _ model.Model = samplingModel{}

// Complete implements model.Model.
func (m samplingModel) Complete(ctx context.Context, system, prompt string) (string, error) {
	params := &mcp.CreateMessageParams{
		SystemPrompt: system,
		MaxTokens:    samplingMaxTokens,
		Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}},
		// A small, fast model does: the question is about one page.
		ModelPreferences: &mcp.ModelPreferences{SpeedPriority: 1, CostPriority: 0.8, IntelligencePriority: 0.3},
	}
	var content []mcp.Content
	if st, ok := ctx.Value(askKey{}).(*askState); ok && roundTrips(m.ss) {
		// Inside a tools/call of a 2026-07-28 client: a server request
		// cannot be sent while serving one (SEP-2322), so the call
		// returns the request as an input request and comes back with
		// the answer; the fetched page waits in the cache meanwhile.
		// Older clients are asked directly, while the call waits.
		switch r := st.responses[samplingInput].(type) {
		case *mcp.CreateMessageResult:
			content = []mcp.Content{r.Content}
		case *mcp.CreateMessageWithToolsResult:
			content = r.Content
		default:
			if st.needed == nil {
				st.needed = mcp.InputRequestMap{}
			}
			st.needed[samplingInput] = params
			return "", errNeedsInput
		}
	} else {
		r, err := m.ss.CreateMessage(ctx, params)
		if err != nil {
			return "", fmt.Errorf("sampling: %w", err)
		}
		content = []mcp.Content{r.Content}
	}
	var text strings.Builder
	for _, c := range content {
		if t, ok := c.(*mcp.TextContent); ok {
			text.WriteString(t.Text)
		}
	}
	if text.Len() == 0 {
		return "", errors.New("sampling: the client's model answered with no text")
	}
	return text.String(), nil
}

// offersSampling reports whether the client of ss said at initialization
// that it answers sampling requests.
func offersSampling(ss *mcp.ServerSession) bool {
	if ss == nil {
		return false
	}
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Sampling != nil
}
