package mcpserver

import (
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// encodeLine returns msg as jsonrpc.EncodeMessage encodes it, byte for
// byte, followed by a newline, in a buffer of linePool (put it back with
// putLine once written). A reply to a request with a number for its id —
// every tool call's — is written around its result as the SDK encoded
// it: EncodeMessage would scan the result again to compact it (it is
// already compact: the SDK's own encoder wrote it) and copy it twice
// more, which for a file read is as much work as encoding the file's text
// once. Any other message goes through EncodeMessage.
func encodeLine(msg jsonrpc.Message) (*[]byte, error) {
	bp := linePool.Get().(*[]byte)
	b := (*bp)[:0]
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > 0 {
		if id, ok := r.ID.Raw().(int64); ok {
			b = append(b, `{"jsonrpc":"2.0","id":`...)
			b = strconv.AppendInt(b, id, 10)
			b = append(b, `,"result":`...)
			b = append(b, r.Result...)
			*bp = append(b, "}\n"...)
			return bp, nil
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		putLine(bp)
		return nil, err
	}
	b = append(b, data...)
	*bp = append(b, '\n')
	return bp, nil
}

// linePool holds the buffers lines are encoded into, so that a large
// reply does not allocate its size again for each call.
var linePool = sync.Pool{New: func() any { return new([]byte) }}

// putLine returns a buffer of encodeLine to the pool; one grown past
// maxPooledLine (a reply of a very large read) is dropped instead, so the
// pool does not hold it for ever.
func putLine(bp *[]byte) {
	if cap(*bp) > maxPooledLine {
		return
	}
	linePool.Put(bp)
}

const maxPooledLine = 1 << 20
