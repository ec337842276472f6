package tool

import (
	"encoding/json"
	"time"
)

// Content is one block of a result: text, or an image with its MIME type.
type Content struct {
	// Type is "text" or "image".
	Type     string
	Text     string
	Data     []byte
	MIMEType string
}

// Text returns a text content block.
func Text(s string) Content { return Content{Type: "text", Text: s} }

// Image returns an image content block.
func Image(data []byte, mime string) Content {
	return Content{Type: "image", Data: data, MIMEType: mime}
}

// Contenter is implemented by tool outputs that render themselves as content
// blocks. An output that does not implement it is shown as indented JSON.
type Contenter interface {
	Content() []Content
}

// Result is what one call produced, in the form a host passes to the model.
type Result struct {
	// CallID and Tool identify the call.
	CallID string
	Tool   string
	// Content is what the model reads.
	Content []Content
	// Structured is the machine-readable output: the tool's Out value on
	// success, an ErrorData on failure.
	Structured any
	// IsError reports a failure the model should read; Code says which.
	IsError bool
	Code    Code
	// Err is the failure as a Go value, for library callers.
	Err *Error
	// Duration is the time the call took, from decode to mapping.
	Duration time.Duration
}

// MetadataOutput is implemented by a tool's output whose text already
// carries its payload: a file's lines, a command's output, the paths or
// lines found. StructuredMetadata returns a copy without that payload,
// keeping what the text does not say and what a program acts on (path,
// line range and counts, encoding, exit code, process group, truncation).
// A server sends it as the call's structured content, so that a reply does
// not carry the payload twice; Result.Structured keeps the whole value.
// The copy must validate against the tool's output schema: the fields it
// leaves out are optional there.
type MetadataOutput interface {
	StructuredMetadata() any
}

// ErrorData is the structured content of a failed call.
type ErrorData struct {
	Code    Code           `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// TextOf returns the concatenated text blocks of the result.
func (r Result) TextOf() string {
	var s string
	for i, c := range r.Content {
		if c.Type != "text" {
			continue
		}
		if i > 0 && s != "" {
			s += "\n"
		}
		s += c.Text
	}
	return s
}

// ErrorResult builds the result of a failed call from err.
func ErrorResult(call Call, err *Error) Result {
	return Result{
		CallID:     call.ID,
		Tool:       call.Name,
		Content:    []Content{Text(err.Error())},
		Structured: ErrorData{Code: err.Code, Message: err.Message, Details: err.Details},
		IsError:    true,
		Code:       err.Code,
		Err:        err,
	}
}

// Call is one request to run a tool: an id chosen by the caller, the tool's
// name and its JSON arguments.
type Call struct {
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}
