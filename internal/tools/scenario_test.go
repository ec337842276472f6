package tools_test

import (
	"testing"

	"github.com/hands-dev/hands/internal/tooltest"
)

func TestScenarios(t *testing.T) { tooltest.Run(t, "testdata") }
