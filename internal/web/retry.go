package web

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

// retryTarget returns where the retry of dead letter n goes: the target
// its sentinel sen notifies now by n's channel, as the owner may have
// fixed the one n was written for since (a wrong webhook URL: the reason
// to retry). Of several targets by that channel, n's own if it is one of
// them; the others had letters of their own. The one target left, where
// n's was removed, may have had one too: the store refuses that retry,
// which would send the message there twice (Server.duplicateRetry says
// so ahead, for the Notifications page). It returns ECONFLICT, saying
// why, if sen notifies by n's channel no more (n is not sent where its
// owner removed it), or by several targets none of which is n's: which
// one replaced n's cannot be told.
func retryTarget(sen *vigil.Sentinel, n *vigil.Notification) (string, error) {
	var c spec.Checked
	if err := json.Unmarshal(sen.Spec, &c); err != nil {
		return "", fmt.Errorf("sentinel %d: specification: %w", sen.ID, err)
	}
	var targets []string
	if c.Sentinel != nil && c.Sentinel.Notify != nil {
		for _, ct := range c.Sentinel.Notify.Contacts {
			if ct.Kind.Channel() == n.Channel { // as the monitor wrote it
				targets = append(targets, ct.Address)
			}
		}
	}
	switch {
	case slices.Contains(targets, n.Target):
		return n.Target, nil
	case len(targets) == 1:
		return targets[0], nil
	case len(targets) == 0:
		return "", vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: sentinel %s no longer notifies by %s (its Notify clause has no %s contact now)",
			n.ID, sen.Name, n.Channel, n.Channel)
	}
	shown := make([]string, len(targets))
	for i, t := range targets {
		shown[i] = shownTarget(t)
	}
	return "", vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: sentinel %s notifies by %s at %d targets (%s), none of them this letter's (%s), and a retry cannot tell which one replaced it: retry those targets' own letters of the message where they are dead letters too, or keep one %[3]s target in its Notify clause",
		n.ID, sen.Name, n.Channel, len(targets), strings.Join(shown, ", "), shownTarget(n.Target))
}
