// Package greet says hello.
package greet

// Hello returns a greeting for name.
func Hello(name string) string {
	return "Hello, " + name
}
