package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"

	"github.com/vigil-web/vigil"
)

// readNoBody reads the body of a request to action, a sentinel's action
// that takes none (POST /api/v1/sentinels/{id}/check-now, pause, resume,
// rotate-feed), which says all it asks by its path: an empty body, white
// space, or an empty JSON object ("{}", which some clients send with every
// POST) is none, and anything else is refused (EINVALID, 400), as the
// other routes refuse a field they do not take, rather than silently
// ignored: a client that sends options the action does not have is told
// so. What the body held is not repeated.
func readNoBody(r *http.Request, action string) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if big := tooLarge(err); big != nil {
			return big
		}
		return vigil.Errorf(vigil.EINVALID, "invalid body: %v", err)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) == nil && obj != nil && len(obj) == 0 {
		return nil
	}
	return vigil.Errorf(vigil.EINVALID, "invalid body: %s takes no body: send none (or an empty JSON object, {})", action)
}
