package web

import (
	"net/http"

	"github.com/vigil-web/vigil"
)

// userSignatureHeader is the header of the webhook deliveries signed
// under their owner's key: webhook.UserSignatureHeader, which this
// adapter does not import (cmd/vigil's tests check they agree).
const userSignatureHeader = "X-Vigil-User-Signature-256"

// webhookKey is a user's webhook signing key and the header of the
// signatures it makes, as GET /api/v1/me/webhook-key answers it and the
// API tokens page shows it.
type webhookKey struct {
	Key    string `json:"key"`
	Header string `json:"header"`
}

// webhookKeyOf returns u's webhook key, nil if the server signs no
// webhooks (UserWebhookKey nil).
func (s *Server) webhookKeyOf(u *vigil.User) *webhookKey {
	if s.UserWebhookKey == nil {
		return nil
	}
	return &webhookKey{Key: s.UserWebhookKey(u.ID), Header: userSignatureHeader}
}

// handleMeWebhookKey answers the signed-in user, or the token's, the key
// that checks the signatures of their own sentinels' webhook deliveries.
// Another user's key is never answered: it is what tells their deliveries
// from this user's.
func (s *Server) handleMeWebhookKey(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	k := s.webhookKeyOf(u)
	if k == nil {
		return vigil.Errorf(vigil.ENOTFOUND, "this server signs no webhooks")
	}
	writeJSON(w, http.StatusOK, k)
	return nil
}
