package tools

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/ledongthuc/pdf"
)

// pdfText extracts the text of a PDF page by page.
func pdfText(data []byte) (text string, err error) {
	defer func() {
		// The PDF library panics on some malformed files.
		if r := recover(); r != nil {
			err = fmt.Errorf("malformed PDF: %v", r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage(); i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		t, err := p.GetPlainText(nil)
		if err != nil {
			return "", fmt.Errorf("page %d: %w", i, err)
		}
		fmt.Fprintf(&b, "--- page %d of %d ---\n%s\n", i, r.NumPage(), strings.Trim(t, "\n"))
	}
	return b.String(), nil
}
