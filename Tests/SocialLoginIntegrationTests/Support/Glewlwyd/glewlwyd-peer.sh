#!/usr/bin/env bash
# Starts a throwaway Glewlwyd OpenID provider on 127.0.0.1 for the integration tests.
#
#   glewlwyd-peer.sh STATE_DIR PORT OWNER_PID [REDIRECT_URI...]
#
# Creates a fresh SQLite database and config in STATE_DIR, starts glewlwyd, configures it over
# its admin API (an RS256 issuer at /api/oidc and an ES256 issuer at /api/oidc-es, user alice,
# a public and a confidential client), prints one line "READY <base-url>" and keeps running
# until OWNER_PID exits (then stops the server). Everything binds to 127.0.0.1 only.
set -euo pipefail

STATE="$1"; PORT="$2"; OWNER="$3"; shift 3
REDIRECTS=("http://127.0.0.1:8765/callback" "$@")
BASE="http://127.0.0.1:$PORT"
API="$BASE/api"

command -v glewlwyd >/dev/null || { echo "MISSING glewlwyd (apt-get install glewlwyd)"; exit 3; }
SCHEMA=/usr/share/dbconfig-common/data/glewlwyd/install/sqlite3
[ -f "$SCHEMA" ] || { echo "MISSING $SCHEMA"; exit 3; }

rm -rf "$STATE"; mkdir -p "$STATE"; cd "$STATE"
sqlite3 glewlwyd.db < "$SCHEMA"   # seeds the admin user (password "password") and backends

# Note: writing use_secure_connection at all makes glewlwyd demand TLS files, so it is absent.
cat > glewlwyd.conf <<CONF
port=$PORT
bind_address="127.0.0.1"
external_url="$BASE"
login_url="login.html"
api_prefix="api"
static_files_path="/usr/share/glewlwyd/webapp/"
allow_origin="*"
log_mode="console"
log_level="WARNING"
cookie_secure=0
cookie_same_site="empty"
session_expiration=2419200
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
max_post_size=16778240
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = { type = "sqlite3"; path = "$STATE/glewlwyd.db"; };
static_files_mime_types = ( { extension = ".html"; mime_type = "text/html"; } );
CONF

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa.key 2>/dev/null
openssl pkey -in rsa.key -pubout -out rsa.pub
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.key 2>/dev/null
openssl pkey -in ec.key -pubout -out ec.pub

glewlwyd --config-file="$STATE/glewlwyd.conf" > glewlwyd.log 2>&1 &
SERVER=$!
echo "$SERVER" > glewlwyd.pid
cleanup() { kill "$SERVER" 2>/dev/null || true; }
trap cleanup EXIT

for _ in $(seq 1 200); do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$API/auth/scheme/" || true)
  [ "$code" != 000 ] && break
  kill -0 "$SERVER" 2>/dev/null || { cat glewlwyd.log; echo "FAILED glewlwyd exited"; exit 1; }
  sleep 0.05
done

admin() { curl -sf -b admin.jar -H 'Content-Type: application/json' "$@" >/dev/null; }
curl -sf -c admin.jar -H 'Content-Type: application/json' \
  -d '{"username":"admin","password":"password"}' "$API/auth/" >/dev/null

plugin() { # name issuer jwt-type private-key public-key
  jq -n --arg name "$1" --arg iss "$2" --arg type "$3" --arg key "$(cat "$4")" --arg cert "$(cat "$5")" '{
    module: "oidc", name: $name, display_name: $name, enabled: true, parameters: {
      iss: $iss, "jwt-type": $type, "jwt-key-size": "256", key: $key, cert: $cert, "jwks-show": true,
      "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
      "refresh-token-rolling": true, "refresh-token-one-use": "always", "allow-non-oidc": true,
      "auth-type-code-enabled": true, "auth-type-code-revoke-replayed": true,
      "auth-type-token-enabled": false, "auth-type-id-token-enabled": true,
      "auth-type-none-enabled": false, "auth-type-password-enabled": false,
      "auth-type-client-enabled": true, "auth-type-refresh-enabled": true,
      "auth-type-device-enabled": true, "pkce-allowed": true, "pkce-method-plain-allowed": false,
      "pkce-required-public-client": true, "introspection-revocation-allowed": true,
      "introspection-revocation-allow-target-client": true, "introspection-revocation-auth-scope": [],
      "oauth-as-iss-id": true, "subject-type": "public", "name-claim": "mandatory",
      "email-claim": "mandatory", "session-management-allowed": false }}'
}
plugin oidc "$API/oidc" rsa rsa.key rsa.pub > plugin-rs.json
plugin oidc-es "$API/oidc-es" ecdsa ec.key ec.pub > plugin-es.json
admin -d @plugin-rs.json "$API/mod/plugin/"
admin -d @plugin-es.json "$API/mod/plugin/"
admin -d '{"username":"alice","name":"Alice Example","email":"alice@example.test","password":"alice-pass-123","scope":["openid"],"enabled":true}' "$API/user/"
REDIRECT_JSON=$(printf '%s\n' "${REDIRECTS[@]}" | jq -R . | jq -s .)
admin -d "$(jq -n --argjson r "$REDIRECT_JSON" '{client_id: "conf-client", client_name: "Confidential",
  client_secret: "conf-secret-xyz", confidential: true, enabled: true, redirect_uri: $r,
  authorization_type: ["code", "refresh_token", "client_credentials"],
  token_endpoint_auth_method: ["client_secret_basic", "client_secret_post"], scope: []}')" "$API/client/"
admin -d "$(jq -n --argjson r "$REDIRECT_JSON" '{client_id: "pub-client", client_name: "Public",
  confidential: false, enabled: true, redirect_uri: $r, authorization_type: ["code", "refresh_token"],
  token_endpoint_auth_method: ["none"]}')" "$API/client/"
admin -d '{"client_id":"device-client","client_name":"Device","confidential":false,"enabled":true,"redirect_uri":[],"authorization_type":["device_authorization","refresh_token"],"token_endpoint_auth_method":["none"]}' "$API/client/"

echo "READY $BASE"
# Stay up while the test process lives; stop the server when it goes.
while kill -0 "$OWNER" 2>/dev/null && kill -0 "$SERVER" 2>/dev/null; do sleep 0.5; done
