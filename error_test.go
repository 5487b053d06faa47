package vigil_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/vigil-web/vigil"
)

func TestErrorCode(t *testing.T) {
	wrapped := fmt.Errorf("store sentinel: %w", vigil.Errorf(vigil.ENOTFOUND, "sentinel %q not found", "s1"))
	tests := []struct {
		name    string
		err     error
		code    string
		message string
	}{
		{"nil", nil, "", ""},
		{"domain", vigil.Errorf(vigil.EINVALID, "name: required"), vigil.EINVALID, "name: required"},
		{"wrapped", wrapped, vigil.ENOTFOUND, `sentinel "s1" not found`},
		{"foreign", errors.New("disk on fire"), vigil.EINTERNAL, "Internal error."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := vigil.ErrorCode(tt.err); got != tt.code {
				t.Errorf("ErrorCode = %q, want %q", got, tt.code)
			}
			if got := vigil.ErrorMessage(tt.err); got != tt.message {
				t.Errorf("ErrorMessage = %q, want %q", got, tt.message)
			}
		})
	}
}
