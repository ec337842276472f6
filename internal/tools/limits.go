package tools

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/hands-dev/hands/tool"
)

// Limits are the bounds the built-in tools apply: one value, from which the
// tools' checks, their result bounds and the numbers their descriptions
// state all come. A zero field means its default.
type Limits struct {
	// MaxFileSize is the largest file read whole, edited or written, in
	// bytes; default 10 MiB.
	MaxFileSize int64 `json:"max_file_size,omitempty"`
	// ReadWholeBytes is the largest file a read without offset or limit
	// returns whole under Behavior.ReadWholeFile; default 256 KiB.
	ReadWholeBytes int64 `json:"read_whole_bytes,omitempty"`
	// ReadLines is how many lines a read returns by default; default 2000.
	ReadLines int `json:"read_lines,omitempty"`
	// LineChars is the length past which a shown line is cut; default 2000.
	LineChars int `json:"line_chars,omitempty"`
	// ReadChars bounds the text of a read result; default 100,000.
	ReadChars int `json:"read_chars,omitempty"`
	// BashTimeout is the default timeout of a shell command; default 2
	// minutes.
	BashTimeout time.Duration `json:"bash_timeout,omitempty"`
	// BashMaxTimeout is the largest timeout a call may ask for; default 10
	// minutes.
	BashMaxTimeout time.Duration `json:"bash_max_timeout,omitempty"`
	// BashOutputChars is how much command output the model sees; default
	// 30,000 characters, the rest saved to a file.
	BashOutputChars int `json:"bash_output_chars,omitempty"`
	// TaskWait is how long a blocking task_output waits by default; default
	// 30 seconds.
	TaskWait time.Duration `json:"task_wait,omitempty"`
	// MaxJobs bounds running background jobs per session; default 10.
	MaxJobs int `json:"max_jobs,omitempty"`
	// GrepChars and GlobChars bound the lines of a grep and the paths of a
	// glob result before it says how to narrow; defaults 20,000 and
	// 30,000.
	GrepChars int `json:"grep_chars,omitempty"`
	GlobChars int `json:"glob_chars,omitempty"`
	// MaxEdits bounds the edits of one multi-edit call; default 1000.
	MaxEdits int `json:"max_edits,omitempty"`
	// WebFetchChars bounds the page text web_fetch returns when no model
	// answers its prompt; default 100,000 characters.
	WebFetchChars int `json:"web_fetch_chars,omitempty"`
	// SearchProgressAfter is how long a grep or glob runs before it
	// reports progress (quicker searches report nothing); default 500 ms.
	SearchProgressAfter time.Duration `json:"search_progress_after,omitempty"`
}

// DefaultLimits returns the limits of DESIGN.md.
func DefaultLimits() Limits {
	return Limits{
		MaxFileSize:     10 << 20,
		ReadWholeBytes:  256 << 10,
		ReadLines:       2000,
		LineChars:       2000,
		ReadChars:       100000,
		BashTimeout:     120 * time.Second,
		BashMaxTimeout:  600 * time.Second,
		BashOutputChars: 30000,
		TaskWait:        30 * time.Second,
		MaxJobs:         10,
		GrepChars:       20000,
		GlobChars:       30000,
		MaxEdits:        1000,
		WebFetchChars:   100000,

		SearchProgressAfter: 500 * time.Millisecond,
	}
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	set := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	if l.MaxFileSize == 0 {
		l.MaxFileSize = d.MaxFileSize
	}
	if l.ReadWholeBytes == 0 {
		l.ReadWholeBytes = d.ReadWholeBytes
	}
	if l.BashMaxTimeout == 0 {
		l.BashMaxTimeout = d.BashMaxTimeout
	}
	if l.BashTimeout == 0 {
		l.BashTimeout = min(d.BashTimeout, l.BashMaxTimeout)
	}
	if l.TaskWait == 0 {
		l.TaskWait = min(d.TaskWait, l.BashMaxTimeout)
	}
	if l.SearchProgressAfter == 0 {
		l.SearchProgressAfter = d.SearchProgressAfter
	}
	set(&l.ReadLines, d.ReadLines)
	set(&l.LineChars, d.LineChars)
	set(&l.ReadChars, d.ReadChars)
	set(&l.BashOutputChars, d.BashOutputChars)
	set(&l.MaxJobs, d.MaxJobs)
	set(&l.GrepChars, d.GrepChars)
	set(&l.GlobChars, d.GlobChars)
	set(&l.MaxEdits, d.MaxEdits)
	set(&l.WebFetchChars, d.WebFetchChars)
	return l
}

// Check reports the first limit that cannot work, in words that name it.
func (l Limits) Check() error {
	switch {
	case l.MaxFileSize < 0 || l.ReadWholeBytes < 0 || l.ReadLines < 0 || l.LineChars < 0 || l.ReadChars < 0 || l.BashOutputChars < 0 ||
		l.MaxJobs < 0 || l.GrepChars < 0 || l.GlobChars < 0 || l.MaxEdits < 0 || l.WebFetchChars < 0:
		return fmt.Errorf("limits must not be negative: %+v", l)
	case l.SearchProgressAfter < 0:
		return fmt.Errorf("search progress delay %s must not be negative", l.SearchProgressAfter)
	case l.BashTimeout < 0 || l.BashMaxTimeout < 0 || l.TaskWait < 0:
		return fmt.Errorf("timeouts must not be negative: bash timeout %s, max %s, task wait %s", l.BashTimeout, l.BashMaxTimeout, l.TaskWait)
	case l.BashMaxTimeout > 0 && l.BashTimeout > l.BashMaxTimeout:
		return fmt.Errorf("bash timeout %s is over the maximum of %s", l.BashTimeout, l.BashMaxTimeout)
	}
	return nil
}

// Describe fills a description template with l: each {{.Name}} is the
// field or method Name of Limits ({{.BashTimeoutMS}}, {{.ReadLines}}, …),
// printed as text/template prints it, which is what the descriptions were
// written for; nothing else of text/template is taken, and parsing a
// template with it at start cost more than every tool's building. A
// template with anything else in braces, or a name Limits lacks, is a
// programming mistake, found when the tools are built.
func (l Limits) Describe(text string) string {
	open := strings.Index(text, "{{")
	if open < 0 {
		return text
	}
	var b strings.Builder
	for open >= 0 {
		b.WriteString(text[:open])
		text = text[open+2:]
		end := strings.Index(text, "}}")
		if end < 0 {
			panic(fmt.Sprintf("tools: description template: unclosed {{ before %q", text))
		}
		b.WriteString(l.field(text[:end]))
		text = text[end+2:]
		open = strings.Index(text, "{{")
	}
	b.WriteString(text)
	return b.String()
}

// field returns the value of the action ".Name": the method Name of
// Limits, else its field, printed as fmt.Print does.
func (l Limits) field(action string) string {
	name, ok := strings.CutPrefix(action, ".")
	if !ok || name == "" || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		panic(fmt.Sprintf("tools: description template: {{%s}} is not {{.Name}} of a field or method of Limits", action))
	}
	v := reflect.ValueOf(l)
	if m := v.MethodByName(name); m.IsValid() && m.Type().NumIn() == 0 && m.Type().NumOut() == 1 {
		return fmt.Sprint(m.Call(nil)[0].Interface())
	}
	if f := v.FieldByName(name); f.IsValid() && f.CanInterface() {
		return fmt.Sprint(f.Interface())
	}
	panic(fmt.Sprintf("tools: description template: Limits has no field or method %s", name))
}

// Today is the date the runtime was built, as 2006-01-02, for
// descriptions that state it (Claude Code's WebSearch tells the model the
// year to search for).
func (l Limits) Today() string { return time.Now().Format(time.DateOnly) }

// BashTimeoutMS is the default shell timeout in milliseconds.
func (l Limits) BashTimeoutMS() int64 { return l.BashTimeout.Milliseconds() }

// BashMaxTimeoutMS is the largest shell timeout in milliseconds.
func (l Limits) BashMaxTimeoutMS() int64 { return l.BashMaxTimeout.Milliseconds() }

// TaskWaitMS is task_output's default wait in milliseconds.
func (l Limits) TaskWaitMS() int64 { return l.TaskWait.Milliseconds() }

// BashTimeoutMin is the default shell timeout in minutes, as "2" or "0.5".
func (l Limits) BashTimeoutMin() string { return minutes(l.BashTimeout) }

// BashMaxTimeoutMin is the largest shell timeout in minutes.
func (l Limits) BashMaxTimeoutMin() string { return minutes(l.BashMaxTimeout) }

func minutes(d time.Duration) string {
	return strconv.FormatFloat(d.Minutes(), 'f', -1, 64)
}

// described is a tool whose description and schema text are filled from
// the limits; the schema's at its first Info (see tool.Sketcher).
type described struct {
	tool.Tool
	sketch tool.Info
	info   func() tool.Info
}

func (d *described) Info() tool.Info { return d.info() }

// Sketch implements tool.Sketcher.
func (d *described) Sketch() tool.Info { return d.sketch }

// withLimits fills t's description and parameter descriptions from l.
func withLimits(t tool.Tool, l Limits) tool.Tool {
	sketch := tool.SketchOf(t)
	sketch.Description = l.Describe(sketch.Description)
	return &described{Tool: t, sketch: sketch, info: sync.OnceValue(func() tool.Info {
		info := t.Info()
		info.Description = sketch.Description
		info.InputSchema = []byte(l.Describe(string(info.InputSchema)))
		return info
	})}
}

// Or returns l with every zero field set to d's value: a host's limits
// over a profile's own (Gemini CLI's 20 MB file limit), before defaults.
func (l Limits) Or(d Limits) Limits {
	v, dv := reflect.ValueOf(&l).Elem(), reflect.ValueOf(d)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			v.Field(i).Set(dv.Field(i))
		}
	}
	return l
}
