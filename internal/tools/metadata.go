package tools

import "github.com/hands-dev/hands/tool"

// The outputs below carry their payload in the text the model reads; the
// structured content a server sends is their metadata only
// (tool.MetadataOutput), so a 32 KB file is not encoded, sent, decoded and
// checked twice. The fields left out are optional in the output schemas.
var (
	_ tool.MetadataOutput = (*ReadOutput)(nil)
	_ tool.MetadataOutput = (*BashOutput)(nil)
	_ tool.MetadataOutput = (*GlobOutput)(nil)
	_ tool.MetadataOutput = (*GrepOutput)(nil)
)

// StructuredMetadata returns the read without its lines (a file's text or
// a directory's entries): the path, kind, window, line counts, encoding
// and size stay.
func (o *ReadOutput) StructuredMetadata() any {
	if o == nil {
		return nil
	}
	m := *o
	m.Lines = nil
	return &m
}

// StructuredMetadata returns the command's result without its output:
// exit code, signal, timeout, byte counts, truncation and the file with
// the whole output, working directory and process group stay.
func (o *BashOutput) StructuredMetadata() any {
	if o == nil {
		return nil
	}
	m := *o
	m.Output, m.Stdout, m.Stderr = "", "", ""
	return &m
}

// StructuredMetadata returns the glob without the paths it found: the
// pattern, directory and counts stay.
func (o *GlobOutput) StructuredMetadata() any {
	if o == nil {
		return nil
	}
	m := *o
	m.Paths = nil
	return &m
}

// StructuredMetadata returns the search without its output lines and the
// files' matching lines: each file's path and count and the totals stay.
func (o *GrepOutput) StructuredMetadata() any {
	if o == nil {
		return nil
	}
	m := *o
	m.Lines = nil
	m.Files = make([]GrepFile, len(o.Files))
	for i, f := range o.Files {
		m.Files[i] = GrepFile{Path: f.Path, Count: f.Count}
	}
	return &m
}
