package tools

import (
	"runtime"

	"github.com/hands-dev/hands/internal/textedit"
)

// releaseRaw is called when the bytes read of a file are no longer needed
// after decoding. When decoding copied them (UTF-16, Latin-1, CR LF
// endings) and they are large, it runs the garbage collector, so that they
// are freed now rather than when the heap has grown to twice what was live
// at the last collection: without it a read and then an edit of a 100 MiB
// UTF-16 file stack the edit's copies on the read's garbage (readSized
// collects before it reads; this collects after decoding). Text that
// shares the bytes' memory (UTF-8 with LF endings) keeps them live anyway.
func releaseRaw(size int, enc textedit.Encoding) {
	if size >= collectBefore && (enc.Kind != textedit.UTF8 || enc.CRLF || enc.Mixed) {
		runtime.GC()
	}
}
