// Package tools holds Hands's built-in tools: one file, one embedded
// description and one testdata folder each. Tools are glue: they decode,
// call an engine (sandbox, textedit, search, jobs) and map the result. Every
// error a tool returns is made with toolErr and carries one of the codes of
// package tool (seed 000), a closed set.
package tools

import "github.com/hands-dev/hands/tool"

// toolErr is the only way a tool makes an error: a code, then a message in
// lower case that names the value involved and, when there is one, the fix.
// A parameter named in the message is passed as a tool.Param (the helper param),
// so that a profile shows it by the name it exposes.
func toolErr(code tool.Code, format string, args ...any) *tool.Error {
	return tool.Errorf(code, format, args...)
}

// param names a parameter inside an error message.
func param(name string) tool.Param { return tool.Param(name) }

// join is the path of parameter k inside the object at ("" for the top
// level).
func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}
