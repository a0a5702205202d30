/** A self-signed certificate for 127.0.0.1 (and localhost), made with openssl at first use;
 *  null when openssl is not available. */
export function selfSignedCert(): { key: string; cert: string } | null;
