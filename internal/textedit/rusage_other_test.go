//go:build !unix

package textedit

// maxRSS is not measured on this system.
func maxRSS() int64 { return 0 }
