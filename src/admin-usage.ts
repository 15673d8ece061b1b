/** The usage of `blockyard admin …`, apart from the commands so that help does not load the server. */
export const ADMIN_USAGE = `usage:
  blockyard admin create-key --workspace <id> --permission <CODE> [--permission <CODE> ...] [--name <display name>] [--expires-at <date>]
  blockyard admin list-keys [--workspace <id>]
  blockyard admin delete-key <client id>
  blockyard admin create-user --username <name>      (password read from BLOCKYARD_NEW_USER_PASSWORD)
  blockyard admin scim-token create [--name <name>]   (a SCIM bearer token, printed once; while one exists SCIM provisioning is enabled)
  blockyard admin scim-token list
  blockyard admin scim-token delete <id>
  blockyard admin rotate-signing-key                  (a new token signing key now; the old ones are trusted until their tokens expire)
  blockyard admin rotate-master-key [--batch-size <rows>]
                                                      (re-encrypts every secret and signing key under BLOCKYARD_MASTER_KEY;
                                                       BLOCKYARD_PREVIOUS_MASTER_KEYS must name the keys they are sealed under)`;

