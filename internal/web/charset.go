package web

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
)

// decode returns body as UTF-8 text, from the charset the response named
// (UTF-8 when it named none or one that is UTF-8 already).
func decode(body []byte, charset string) (string, error) {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	cs := strings.ToLower(strings.TrimSpace(charset))
	if cs == "" || cs == "utf-8" || cs == "utf8" || cs == "us-ascii" {
		return strings.ToValidUTF8(string(body), "\uFFFD"), nil
	}
	enc, err := htmlindex.Get(cs)
	if err != nil {
		return strings.ToValidUTF8(string(body), "\uFFFD"), nil
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return "", fmt.Errorf("decoding %s text: %v", charset, err)
	}
	if !utf8.Valid(out) {
		return strings.ToValidUTF8(string(out), "\uFFFD"), nil
	}
	return string(out), nil
}
