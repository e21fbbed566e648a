"""Python's ssl and hashlib on OpenSSL with the incore provider preferred
(OPENSSL_CONF set by the caller, tests/provider/prov_cli.sh): hashlib.sha256
of 1 MiB, and a TLS 1.3 loopback connection moving 1 MiB each way.  The
caller reads the provider's byte counters (INCORE_PROVIDER_TRACE).

Usage: prov_python.py CERT KEY"""
import hashlib
import socket
import ssl
import sys
import threading

MIB = 1 << 20
cert, key = sys.argv[1], sys.argv[2]
data = bytes(range(256)) * (MIB // 256)
digest = hashlib.sha256(data).hexdigest()
# SHA-256 of these 1 MiB, made by OpenSSL's default provider, not incore
if digest != "fbbab289f7f94b25736c58be46a994c441fd02552cc6022352e3d86d2fab7c83":
    sys.exit("hashlib.sha256 through the provider: wrong digest " + digest)

def recv_exactly(s, n):
    got = bytearray()
    while len(got) < n:
        chunk = s.recv(min(65536, n - len(got)))
        if not chunk:
            raise RuntimeError("connection closed after %d bytes" % len(got))
        got += chunk
    return bytes(got)

server_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
server_ctx.load_cert_chain(cert, key)
client_ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
client_ctx.check_hostname = False
client_ctx.verify_mode = ssl.CERT_NONE
client_ctx.minimum_version = ssl.TLSVersion.TLSv1_3

listener = socket.create_server(("127.0.0.1", 0))
port = listener.getsockname()[1]
result = {}

def serve():
    conn, _ = listener.accept()
    with server_ctx.wrap_socket(conn, server_side=True) as s:
        result["server_got"] = recv_exactly(s, MIB)
        s.sendall(data)

t = threading.Thread(target=serve)
t.start()
with client_ctx.wrap_socket(socket.create_connection(("127.0.0.1", port))) as c:
    c.sendall(data)
    back = recv_exactly(c, MIB)
    cipher = c.cipher()
t.join()
listener.close()
assert result["server_got"] == data and back == data, "data differ"
print("python: %s %s, 1 MiB each way; sha256 %s" % (cipher[1], cipher[0], digest[:16]))
