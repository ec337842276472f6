package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeIO serves one client speaking newline-delimited JSON-RPC, reading
// in and writing out (for `hands serve`, stdin and stdout), until in ends or
// ctx does; it closes neither. A line that is not a valid message is answered
// with a JSON-RPC error (-32700 or -32600) and the server goes on; a line
// longer than Options.MaxRequestSize is refused and skipped in bounded
// memory. When in ends, every request already read is answered before
// ServeIO returns nil.
func (s *Server) ServeIO(ctx context.Context, in io.Reader, out io.Writer) error {
	pending := (s.warmUpOn || s.prepareFn != nil) && inputPending(in)
	if s.warmUpOn && !pending {
		defer s.startWarmUp(ctx)()
	}
	if s.prepareFn != nil {
		defer s.startPrepare(ctx, pending)()
	}
	return s.Run(ctx, &lineTransport{in: in, out: out, limit: s.maxRequestSize, log: s.log, srv: s})
}

// lineTransport is an mcp.Transport over newline-delimited JSON that
// checks each line before the SDK sees it: the SDK's own IOTransport
// closes the connection on the first line it cannot decode.
type lineTransport struct {
	in    io.Reader
	out   io.Writer
	limit int64
	log   *slog.Logger
	srv   *Server
}

func (t *lineTransport) Connect(context.Context) (mcp.Connection, error) {
	c := &lineConn{
		out:      t.out,
		log:      t.log,
		incoming: make(chan readResult),
		closed:   make(chan struct{}),
		pending:  map[jsonrpc.ID]string{},
		outgoing: map[jsonrpc.ID]bool{},
		changed:  make(chan struct{}),
	}
	if t.srv != nil {
		c.newIteration = t.srv.newIteration
		t.srv.mu.Lock()
		t.srv.lines = c
		t.srv.mu.Unlock()
	}
	go c.readLoop(&frameReader{r: bufio.NewReaderSize(t.in, 64<<10), limit: t.limit})
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

// lineConn is the connection of a lineTransport. It knows which requests
// it has handed to the SDK and not yet seen answered, so that at the end
// of input it can hold the SDK's read side open until each is answered
// (the SDK cancels every request in flight when Read fails).
type lineConn struct {
	out      io.Writer
	log      *slog.Logger
	incoming chan readResult
	closed   chan struct{}
	once     sync.Once

	writeMu sync.Mutex

	mu       sync.Mutex
	pending  map[jsonrpc.ID]string // requests read and not answered → method
	outgoing map[jsonrpc.ID]bool   // our requests the client has not answered
	changed  chan struct{}         // closed and replaced when either map changes
	inputErr error                 // why the input ended (io.EOF when it did cleanly)
	broken   bool                  // a write failed: no reply can be written

	newIteration func() // notifications/hands/newIteration
}

// readLoop reads lines until the input ends, refusing bad ones itself and
// passing the others on.
func (c *lineConn) readLoop(fr *frameReader) {
	for {
		line, size, over, err := fr.next()
		if err != nil {
			c.deliver(readResult{err: err})
			return
		}
		if over {
			bad := tooLarge(idFromPrefix(line), size, fr.limit, true)
			c.log.Warn("refused a message", "size", size, "limit", fr.limit)
			c.refuse(bad)
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue // blank lines separate nothing; skip them
		}
		msg, bad := decodeMessage(line)
		if bad != nil {
			c.log.Warn("refused a message", "err", bad.err.Message)
			c.refuse(bad)
			continue
		}
		if !c.deliver(readResult{msg: msg}) {
			return
		}
	}
}

func (c *lineConn) deliver(r readResult) bool {
	select {
	case c.incoming <- r:
		return true
	case <-c.closed:
		return false
	}
}

// refuse answers a message the SDK never sees.
func (c *lineConn) refuse(b *badMessage) {
	if err := c.writeLine(errorReply(b)); err != nil {
		c.log.Warn("writing an error reply", "err", err)
	}
}

func (c *lineConn) writeLine(data []byte) error {
	return c.write(append(data, '\n'))
}

// write writes line, which ends in its newline.
func (c *lineConn) write(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.out.Write(line)
	return err
}

// signal tells a Read waiting at the end of input that something changed;
// c.mu is held.
func (c *lineConn) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// errInputClosed answers the server's own requests still open when the
// client's input ends: no answer can come any more.
var errInputClosed = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the client closed its input before answering"}

// Read returns the next message. Once the input has ended it returns no
// error until every request read has been answered: meanwhile it answers
// the server's own open requests with errInputClosed and cancels open
// subscriptions (they end only by cancellation).
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		c.mu.Lock()
		if c.inputErr != nil {
			msg, wait, err := c.drainLocked()
			c.mu.Unlock()
			if msg != nil || err != nil {
				return msg, err
			}
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-c.closed:
				return nil, io.EOF
			}
		}
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case r := <-c.incoming:
			if r.err != nil {
				if !errors.Is(r.err, io.EOF) {
					c.log.Warn("reading requests", "err", r.err)
				}
				c.mu.Lock()
				c.inputErr = r.err
				c.mu.Unlock()
				continue
			}
			if msg, ok := c.accept(r.msg); ok {
				return msg, nil
			}
		}
	}
}

// drainLocked is one step of Read after the end of input: a message to
// return, an error to end with, or a channel to wait on.
func (c *lineConn) drainLocked() (jsonrpc.Message, <-chan struct{}, error) {
	if c.broken || len(c.pending) == 0 {
		if errors.Is(c.inputErr, io.EOF) {
			return nil, nil, io.EOF
		}
		return nil, nil, c.inputErr
	}
	for id := range c.outgoing {
		delete(c.outgoing, id)
		return &jsonrpc.Response{ID: id, Error: errInputClosed}, nil, nil
	}
	for id, method := range c.pending {
		if method == "subscriptions/listen" {
			c.pending[id] = method + " (cancelled)"
			params, _ := json.Marshal(map[string]any{"requestId": id.Raw(), "reason": "the client closed its input"})
			return &jsonrpc.Request{Method: "notifications/cancelled", Params: params}, nil, nil
		}
	}
	return nil, c.changed, nil
}

// accept records a message read; ok is false when it was refused here.
func (c *lineConn) accept(msg jsonrpc.Message) (_ jsonrpc.Message, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if m.IsCall() {
			if _, dup := c.pending[m.ID]; dup {
				c.refuse(invalidRequest(jsonrpc.ID{}, "id %v is already used by a request still running; give each request a new id", m.ID.Raw()))
				return nil, false
			}
			c.pending[m.ID] = m.Method
		} else if m.Method == notifyNewIteration {
			// Hands's own: the SDK does not know it.
			if c.newIteration != nil {
				c.newIteration()
			}
			return nil, false
		} else if m.Method == "notifications/cancelled" {
			// The client wants no answer: the end of input need not
			// wait for one.
			var p struct {
				RequestID any `json:"requestId"`
			}
			if json.Unmarshal(m.Params, &p) == nil {
				if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
					delete(c.pending, id)
					c.signal()
				}
			}
		}
	case *jsonrpc.Response:
		delete(c.outgoing, m.ID)
	}
	return msg, true
}

// Write writes one message as a line, recording requests the client must
// answer and requests now answered.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	line, err := encodeLine(msg)
	if err != nil {
		return err
	}
	req, isCall := msg.(*jsonrpc.Request)
	if isCall = isCall && req.IsCall(); isCall {
		c.mu.Lock()
		c.outgoing[req.ID] = true
		c.signal()
		c.mu.Unlock()
	}
	err = c.write(*line)
	putLine(line)
	if resp, ok := msg.(*jsonrpc.Response); ok || err != nil {
		c.mu.Lock()
		if ok {
			delete(c.pending, resp.ID)
		}
		if err != nil {
			c.broken = true
		}
		c.signal()
		c.mu.Unlock()
	}
	return err
}

// Close ends the connection; a blocked Read returns. The input itself is
// not closed (stdin belongs to the process).
func (c *lineConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }

// frameReader splits its input into lines, reading a line longer than
// limit in bounded memory.
type frameReader struct {
	r     *bufio.Reader
	limit int64
	err   error
}

// headSize is how much of an oversized line is kept, to find its id.
const headSize = 64 << 10

// next returns the next line without its line ending. When the line is
// longer than limit, over is true, line is its first headSize bytes and
// size the line's length; the rest was read and dropped.
func (f *frameReader) next() (line []byte, size int64, over bool, err error) {
	if f.err != nil {
		return nil, 0, false, f.err
	}
	for {
		chunk, err := f.r.ReadSlice('\n')
		size += int64(len(chunk))
		content := size
		if err == nil {
			content-- // the newline
		}
		switch {
		case over:
		case content > f.limit:
			over = true
			line = bytes.Clone(append(line, chunk...)[:min(len(line)+len(chunk), headSize)])
		default:
			if need := len(line) + len(chunk); need > cap(line) {
				// Grow by doubling, but never past the limit: a line
				// near it is not held twice over.
				grown := min(max(2*cap(line), need), int(f.limit)+len(chunk))
				line = slices.Grow(line, grown-len(line))
			}
			line = append(line, chunk...)
		}
		switch {
		case err == nil:
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			return line, content, over, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case size > 0:
			// The last line has no newline: take it, and report the
			// error on the next call.
			f.err = err
			return line, content, over, nil
		default:
			f.err = err
			return nil, 0, false, err
		}
	}
}
