package notebook

import (
	"encoding/json"
	"fmt"
	"strings"
)

// span is the byte range [start, end) of a JSON value in a document.
type span struct{ start, end int }

// member is one key and value of a JSON object.
type member struct {
	key      string
	keyStart int  // offset of the key's opening quote
	val      span // the value
}

// scanner finds the byte spans of values in a JSON document that
// json.Valid accepted; it never decodes more than it is asked.
type scanner struct{ data []byte }

func (s scanner) ws(i int) int {
	for i < len(s.data) {
		switch s.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset after the string starting at i.
func (s scanner) skipString(i int) (int, error) {
	for j := i + 1; j < len(s.data); j++ {
		switch s.data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string at offset %d", i)
}

// skipValue returns the offset after the value starting at i.
func (s scanner) skipValue(i int) (int, error) {
	if i >= len(s.data) {
		return 0, fmt.Errorf("value expected at offset %d", i)
	}
	switch s.data[i] {
	case '"':
		return s.skipString(i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s.data); j++ {
			switch s.data[j] {
			case '"':
				end, err := s.skipString(j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, fmt.Errorf("unterminated value at offset %d", i)
	}
	j := i
	for j < len(s.data) && !strings.ContainsRune(",]} \t\n\r", rune(s.data[j])) {
		j++
	}
	if j == i {
		return 0, fmt.Errorf("value expected at offset %d", i)
	}
	return j, nil
}

// object returns the members of the object whose value spans v.
func (s scanner) object(v span) ([]member, error) {
	if v.end-v.start < 2 || s.data[v.start] != '{' {
		return nil, fmt.Errorf("object expected at offset %d", v.start)
	}
	var ms []member
	i := s.ws(v.start + 1)
	if i < v.end && s.data[i] == '}' {
		return nil, nil
	}
	for i < v.end {
		if s.data[i] != '"' {
			return nil, fmt.Errorf("key expected at offset %d", i)
		}
		kend, err := s.skipString(i)
		if err != nil {
			return nil, err
		}
		key, err := decodeString(s.data[i:kend])
		if err != nil {
			return nil, err
		}
		j := s.ws(kend)
		if j >= v.end || s.data[j] != ':' {
			return nil, fmt.Errorf("colon expected at offset %d", j)
		}
		vs := s.ws(j + 1)
		ve, err := s.skipValue(vs)
		if err != nil {
			return nil, err
		}
		ms = append(ms, member{key: key, keyStart: i, val: span{vs, ve}})
		i = s.ws(ve)
		if i < v.end && s.data[i] == ',' {
			i = s.ws(i + 1)
			continue
		}
		if i < v.end && s.data[i] == '}' {
			return ms, nil
		}
		return nil, fmt.Errorf("comma or } expected at offset %d", i)
	}
	return nil, fmt.Errorf("unterminated object at offset %d", v.start)
}

// array returns the spans of the elements of the array spanning v.
func (s scanner) array(v span) ([]span, error) {
	if v.end-v.start < 2 || s.data[v.start] != '[' {
		return nil, fmt.Errorf("array expected at offset %d", v.start)
	}
	var out []span
	i := s.ws(v.start + 1)
	if i < v.end && s.data[i] == ']' {
		return nil, nil
	}
	for i < v.end {
		e, err := s.skipValue(i)
		if err != nil {
			return nil, err
		}
		out = append(out, span{i, e})
		i = s.ws(e)
		if i < v.end && s.data[i] == ',' {
			i = s.ws(i + 1)
			continue
		}
		if i < v.end && s.data[i] == ']' {
			return out, nil
		}
		return nil, fmt.Errorf("comma or ] expected at offset %d", i)
	}
	return nil, fmt.Errorf("unterminated array at offset %d", v.start)
}

// decodeString decodes a JSON string literal.
func decodeString(raw []byte) (string, error) {
	if len(raw) >= 2 && !strings.ContainsRune(string(raw), '\\') {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// lookup returns the last member named key (JSON decoders let the last of
// duplicate keys win).
func lookup(ms []member, key string) (member, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == key {
			return ms[i], true
		}
	}
	return member{}, false
}

// indentBefore returns the spaces and tabs between the last newline before
// offset i and i, and whether there is such a newline with only blanks
// after it.
func indentBefore(data []byte, i int) (string, bool) {
	j := i
	for j > 0 && (data[j-1] == ' ' || data[j-1] == '\t') {
		j--
	}
	if j == 0 || data[j-1] != '\n' {
		return "", false
	}
	return string(data[j:i]), true
}

// style is how a notebook file lays out its JSON, so that the cells we write
// look like the cells around them.
type style struct {
	multiline bool   // one member per line, indented
	newline   string // "\n", or "\r\n" in a file written on Windows
	unit      string // one level of indentation
	colon     string // between a key and its value
	comma     string // between members on one line (compact layout)
}

// detectStyle reads the layout off the root object's first members.
func detectStyle(data []byte, root []member) style {
	st := style{colon: ": ", comma: ", ", newline: "\n"}
	if len(root) == 0 {
		return st
	}
	first := root[0]
	if ind, ok := indentBefore(data, first.keyStart); ok {
		st.multiline, st.unit = true, ind
		if nl := first.keyStart - len(ind) - 1; nl > 0 && data[nl-1] == '\r' {
			st.newline = "\r\n"
		}
	}
	end, err := scanner{data}.skipString(first.keyStart)
	if err == nil && end <= first.val.start {
		st.colon = string(data[end:first.val.start])
	}
	if !st.multiline && len(root) > 1 {
		st.comma = string(data[first.val.end:root[1].keyStart])
	}
	return st
}

// field is a member of an object being written: its key and its value as
// JSON already laid out for its depth.
type field struct {
	key, raw string
}

// object lays out an object whose opening brace sits at indentation indent
// and whose members sit at memberIndent.
func (st style) object(indent, memberIndent string, fs []field) string {
	if len(fs) == 0 {
		return "{}"
	}
	var sb strings.Builder
	sb.WriteByte('{')
	for i, f := range fs {
		if i > 0 {
			sb.WriteByte(',')
			if !st.multiline {
				sb.WriteString(strings.TrimPrefix(st.comma, ","))
			}
		}
		if st.multiline {
			sb.WriteString(st.newline + memberIndent)
		}
		sb.WriteString(quote(f.key))
		sb.WriteString(st.colon)
		sb.WriteString(f.raw)
	}
	if st.multiline {
		sb.WriteString(st.newline + indent)
	}
	sb.WriteByte('}')
	return sb.String()
}

// stringArray lays out an array of strings whose opening bracket sits at
// indentation indent.
func (st style) stringArray(indent string, items []string) string {
	if len(items) == 0 {
		return "[]"
	}
	var sb strings.Builder
	sb.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			sb.WriteByte(',')
			if !st.multiline {
				sb.WriteString(strings.TrimPrefix(st.comma, ","))
			}
		}
		if st.multiline {
			sb.WriteString(st.newline + indent + st.unit)
		}
		sb.WriteString(quote(it))
	}
	if st.multiline {
		sb.WriteString(st.newline + indent)
	}
	sb.WriteByte(']')
	return sb.String()
}

// quote writes s as a JSON string the way Python's json.dumps with
// ensure_ascii=False does, as Jupyter writes notebooks: only the quote, the
// backslash and control characters are escaped.
func quote(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) + 2)
	sb.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch r {
		case '"':
			sb.WriteString(`\"`)
		case '\\':
			sb.WriteString(`\\`)
		case '\n':
			sb.WriteString(`\n`)
		case '\r':
			sb.WriteString(`\r`)
		case '\t':
			sb.WriteString(`\t`)
		case '\b':
			sb.WriteString(`\b`)
		case '\f':
			sb.WriteString(`\f`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&sb, `\u%04x`, r)
			} else {
				sb.WriteRune(r)
			}
		}
	}
	sb.WriteByte('"')
	return sb.String()
}
