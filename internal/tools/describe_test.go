package tools

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"text/template"
	"time"
)

// byTemplate is what Describe replaced: text/template run on l.
func byTemplate(l Limits, text string) (string, error) {
	t, err := template.New("").Option("missingkey=error").Parse(text)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	err = t.Execute(&b, l)
	return b.String(), err
}

// describeLimits are limits with every field set, and defaults.
var describeLimits = []Limits{
	DefaultLimits(),
	{MaxFileSize: 1, ReadWholeBytes: 2, ReadLines: 3, LineChars: 4, ReadChars: 5, BashOutputChars: 6, MaxJobs: 7, GrepChars: 8,
		GlobChars: 9, MaxEdits: 10, WebFetchChars: 11, BashTimeout: 90 * time.Second, BashMaxTimeout: 150 * time.Second,
		TaskWait: 1500 * time.Millisecond, SearchProgressAfter: time.Second},
}

// Every field and every method without arguments of Limits is filled in
// as text/template filled it, alone and among text.
func TestDescribeAsTemplate(t *testing.T) {
	typ := reflect.TypeFor[Limits]()
	var names []string
	for i := range typ.NumField() {
		names = append(names, typ.Field(i).Name)
	}
	for i := range typ.NumMethod() {
		if m := typ.Method(i); m.Type.NumIn() == 1 && m.Type.NumOut() == 1 {
			names = append(names, m.Name)
		}
	}
	for _, l := range describeLimits {
		for _, n := range names {
			for _, text := range []string{"{{." + n + "}}", "at most {{." + n + "}} ms; default {{.ReadLines}}, {{.BashTimeoutMS}}.\n"} {
				want, err := byTemplate(l, text)
				if err != nil {
					t.Fatal(err)
				}
				if got := l.Describe(text); got != want {
					t.Errorf("Describe(%q) = %q, text/template gives %q", text, got, want)
				}
			}
		}
	}
	if got := DefaultLimits().Describe("no braces { } here"); got != "no braces { } here" {
		t.Errorf("text without a template changed: %q", got)
	}
}

// Anything but {{.Name}} of Limits is refused, loudly: a programming
// mistake in a description, found as the tools are built.
func TestDescribeRefuses(t *testing.T) {
	for _, text := range []string{"{{.NoSuch}}", "{{.ReadLines", "{{ .ReadLines }}", "{{ReadLines}}", "{{.}}", "{{.Or}}", "{{if .ReadLines}}x{{end}}", "{{.ReadLines | printf}}", "{{.limits}}"} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "description template") {
					t.Errorf("Describe(%q) did not panic as a description template mistake: %v", text, r)
				}
			}()
			DefaultLimits().Describe(text)
		}()
	}
}

// Describe either refuses a text or fills it as text/template does.
func FuzzDescribe(f *testing.F) {
	for _, s := range []string{"", "plain", "{{.ReadLines}}", "a {{.BashMaxTimeoutMin}} b {{.Today}}", "{{.X}}", "{{", "}}{{.MaxJobs}}}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l := describeLimits[1]
		got, ok := func() (s string, ok bool) {
			defer func() {
				if recover() != nil {
					ok = false
				}
			}()
			return l.Describe(text), true
		}()
		if !ok {
			return
		}
		if !strings.Contains(text, "{{") && got != text {
			t.Fatalf("Describe(%q) changed a text without a template: %q", text, got)
		}
		if !strings.Contains(text, "{{") {
			return
		}
		want, err := byTemplate(l, text)
		if err != nil {
			t.Fatalf("Describe(%q) = %q, but text/template refuses it: %v", text, got, err)
		}
		if got != want {
			t.Fatalf("Describe(%q) = %q, text/template gives %q", text, got, want)
		}
	})
}
