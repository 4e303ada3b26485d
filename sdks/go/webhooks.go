package trawl

// Standard Webhooks verification for receivers of Trawl's deliveries: `webhook-signature` holds
// one or more `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the decoded `whsec_`
// secret; the timestamp must be within the tolerance, against replays.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrWebhookVerification: a delivery whose signature or timestamp does not check out.
var ErrWebhookVerification = errors.New("trawl: webhook verification failed")

// SignWebhook is the signature Trawl sends for a message (receivers' tests can use it).
func SignWebhook(secret, id string, timestamp int64, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// VerifyWebhook checks a delivery's headers against its raw body; tolerance 0 means 5 minutes.
func VerifyWebhook(secret string, body []byte, headers http.Header, tolerance time.Duration) error {
	if tolerance == 0 {
		tolerance = 5 * time.Minute
	}
	id, stamp, signatures := headers.Get("webhook-id"), headers.Get("webhook-timestamp"), headers.Get("webhook-signature")
	if id == "" || stamp == "" || signatures == "" {
		return errors.New("trawl: missing webhook-id, webhook-timestamp or webhook-signature")
	}
	seconds, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || math.Abs(float64(time.Now().Unix()-seconds)) > tolerance.Seconds() {
		return ErrWebhookVerification
	}
	expected, err := SignWebhook(secret, id, seconds, body)
	if err != nil {
		return err
	}
	for _, candidate := range strings.Split(signatures, " ") {
		if hmac.Equal([]byte(candidate), []byte(expected)) {
			return nil
		}
	}
	return ErrWebhookVerification
}
