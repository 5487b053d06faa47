package spec

import (
	"strings"
	"testing"
	"time"
)

// TestTargetErrorsHidePassword: a message that names a target, or writes
// it again, hides the password of its URLs as xxxxx, as every message
// that names a URL does. The checker's "operands of OR must be distinct"
// and the parser's "join them with OR: Using a OR b" quoted it.
func TestTargetErrorsHidePassword(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{{
		name: "not distinct",
		src:  "Create Sentinel s Using http://u:s3cret@a.example/ OR http://u:s3cret@a.example/\n",
		want: "operands of OR must be distinct: http://u:xxxxx@a.example/ appears twice",
	}, {
		name: "a second Using",
		src:  "Create Sentinel s Using https://a.example/ Using https://u:s3cret@b.example/\n",
		want: "join them with OR: Using https://a.example/ OR https://u:xxxxx@b.example/",
	}, {
		name: "a second Using, the first with a password",
		src:  "Create Sentinel s Using (https://u:s3cret@a.example/ AND c) Using https://b.example/\n",
		want: "join them with OR: Using (https://u:xxxxx@a.example/ AND c) OR https://b.example/",
	}, {
		name: "a second URL without OR",
		src:  "Create Sentinel s Using https://a.example/ \"https://u:s3cret@b.example/\"\n",
		want: "join them with OR: Using https://a.example/ OR https://u:xxxxx@b.example/",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f", []byte(tc.src))
			if err == nil {
				_, err = NewChecker(time.Now()).CheckFile(f)
			}
			el, _ := err.(ErrorList)
			var got strings.Builder
			for _, e := range el {
				got.WriteString(e.Error() + "\n")
			}
			if strings.Contains(got.String(), "s3cret") || !strings.Contains(got.String(), tc.want) {
				t.Errorf("got\n%swant no password, and %q", got.String(), tc.want)
			}
		})
	}
}
