//! The save editor's HTTP API without a browser: `gdvariant edit --no-browser` refuses requests
//! without its token and files it was not given, refuses values the target cannot hold, and
//! saves atomically with a backup, changing only the bytes of what was edited.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running `gdvariant edit`, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
    token: String,
}

impl Server {
    fn start(files: &[&Path]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
            .args(["edit", "--no-browser"])
            .args(files)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start gdvariant edit");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("http://")
            .expect("an address")
            .to_string();
        let (addr, token) = url.split_once("/?token=").expect("a token in the address");
        Server {
            addr: addr.to_string(),
            token: token.to_string(),
            child,
        }
    }

    /// `(status, body)` of one request; `token` is sent as the header when given.
    fn request(&self, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        let auth = token.map_or(String::new(), |t| format!("X-Gdvariant-Token: {t}\r\n"));
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer).into_owned();
        let status = text[9..12].parse().unwrap();
        let body = text
            .split_once("\r\n\r\n")
            .map_or("", |(_, b)| b)
            .to_string();
        (status, body)
    }

    fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, Some(&self.token.clone()), "")
    }

    fn post(&self, path: &str, body: &str) -> (u16, String) {
        self.request("POST", path, Some(&self.token.clone()), body)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn fixture(rel: &str, dir: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/saves")
        .join(rel);
    let to = dir.join(rel.replace('/', "-"));
    std::fs::copy(from, &to).unwrap();
    to
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "gdvariant-editor-api-{name}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn requests_without_the_token_or_for_other_files_are_refused() {
    let dir = scratch("token");
    let save = fixture("godot4.3/savegame.sav", &dir);
    let server = Server::start(&[&save]);
    assert_eq!(server.request("GET", "/api/files", None, "").0, 403);
    assert_eq!(server.request("GET", "/", None, "").0, 403);
    let wrong = "0".repeat(server.token.len());
    assert_eq!(server.request("GET", "/api/files", Some(&wrong), "").0, 403);
    assert_eq!(
        server.request("POST", "/api/files/0/save", Some("x"), "").0,
        403
    );
    let query = format!("/api/files/0/download?token={}", server.token);
    assert_eq!(server.request("GET", &query, None, "").0, 200);
    // Files are named by index only.
    assert_eq!(server.get("/api/files/1/children").0, 404);
    assert_eq!(
        server.get("/api/files/..%2F..%2Fetc%2Fpasswd/children").0,
        400
    );
    assert_eq!(server.get("/api/files/0/children?path=99").0, 404);
    // Bodies are bounded.
    let huge = format!(
        "{{\"op\":\"set\",\"path\":[0],\"text\":\"{}\"}}",
        "x".repeat(17 << 20)
    );
    assert_eq!(server.post("/api/files/0/edit", &huge).0, 413);
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_edit_saved_changes_only_its_bytes_and_keeps_a_backup() {
    let dir = scratch("save");
    let save = fixture("godot4.3/savegame.sav", &dir);
    let original = std::fs::read(&save).unwrap();
    let server = Server::start(&[&save]);
    // Frame 1, entry 2 is "level": 7.
    let (status, body) = server.get("/api/files/0/node?path=1,2");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"pointer\":\"/level\""), "{body}");
    let (status, body) = server.post(
        "/api/files/0/edit",
        r#"{"op":"set","path":[1,2],"value":{"type":"Int","value":99}}"#,
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.post("/api/files/0/save", "");
    assert_eq!(status, 200, "{body}");
    let saved = std::fs::read(&save).unwrap();
    let changed: Vec<usize> = (0..original.len())
        .filter(|&i| original[i] != saved[i])
        .collect();
    assert_eq!(saved.len(), original.len());
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(saved[changed[0]], 99);
    let backup = dir.join("godot4.3-savegame.sav.bak");
    assert_eq!(std::fs::read(backup).unwrap(), original);
    // Undo, and the file is the original again once saved.
    assert_eq!(server.post("/api/files/0/undo", "").0, 200);
    assert_eq!(server.post("/api/files/0/save", "").0, 200);
    assert_eq!(std::fs::read(&save).unwrap(), original);
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn values_the_target_cannot_hold_are_refused_and_nothing_changes() {
    let dir = scratch("refuse");
    let typed = fixture("godot4.4.1/typed_arrays.sav", &dir);
    let godot3 = fixture("godot3.2.3/savegame.sav", &dir);
    let server = Server::start(&[&typed, &godot3]);
    // The entry "unlocked" of the first frame: Array[int].
    let (_, body) = server.get("/api/files/0/children?path=0");
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    let unlocked = list["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "\"unlocked\"")
        .expect("the entry \"unlocked\"");
    assert_eq!(unlocked["element"], "Int");
    let at = unlocked["index"].as_u64().unwrap();
    let insert = format!(r#"{{"op":"insert","path":[0,{at}],"text":"\"eight\""}}"#);
    let (status, body) = server.post("/api/files/0/edit", &insert);
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("holds Int only"), "{body}");
    let set = format!(r#"{{"op":"set","path":[0,{at},0],"text":"1.5"}}"#);
    let (status, body) = server.post("/api/files/0/edit", &set);
    assert_eq!(status, 422, "{body}");
    // A StringName has no place in Godot 3 bytes: the encoder's message.
    let (status, body) = server.post(
        "/api/files/1/edit",
        r#"{"op":"set","path":[1,0],"text":"&\"Ann\""}"#,
    );
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("StringName"), "{body}");
    // What fits goes in, and out again.
    let append = format!(r#"{{"op":"insert","path":[0,{at}],"text":"13"}}"#);
    let (status, body) = server.post("/api/files/0/edit", &append);
    assert_eq!(status, 200, "{body}");
    let (_, body) = server.get(&format!("/api/files/0/node?path=0,{at},4"));
    assert!(body.contains("\"summary\":\"13\""), "{body}");
    let remove = format!(r#"{{"op":"remove","path":[0,{at},4]}}"#);
    assert_eq!(server.post("/api/files/0/edit", &remove).0, 200);
    assert_eq!(server.post("/api/files/0/undo", "").0, 200);
    assert_eq!(server.post("/api/files/0/undo", "").0, 200);
    for i in 0..2 {
        let (_, body) = server.get(&format!("/api/files/{i}"));
        assert!(
            body.contains("\"undo\":0") && body.contains("\"dirty\":false"),
            "{body}"
        );
    }
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_hostile_file_gives_small_answers() {
    use gdvariant::{encode, Dialect, Variant};
    let dir = scratch("hostile");
    let mut d = gdvariant::Dictionary::new();
    d.insert(
        Variant::from("k".repeat(200_000)),
        Variant::from("v".repeat(1_000_000)),
    );
    let nested = (0..1000).fold(Variant::Nil, |v, _| Variant::from(vec![v]));
    d.insert(Variant::from("deep"), nested);
    let bytes = encode(
        &Variant::Dictionary(d),
        Dialect::Godot4,
        &Default::default(),
    )
    .unwrap();
    let path = dir.join("hostile.bin");
    std::fs::write(&path, bytes).unwrap();
    let server = Server::start(&[&path]);
    let (status, body) = server.get("/api/files/0/children?path=0");
    assert_eq!(status, 200, "{}", &body[..body.len().min(500)]);
    assert!(body.len() < 4096, "{} bytes", body.len());
    // The deepest value is reachable, and its path is answered.
    let deep: Vec<String> = std::iter::once("0,1".to_string())
        .chain((0..999).map(|_| "0".into()))
        .collect();
    let (status, body) = server.get(&format!("/api/files/0/node?path={}", deep.join(",")));
    assert_eq!(status, 200, "{body}");
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

/// An encrypted save opens locked, opens with its password, and is saved encrypted with the same
/// password (the MD5 inside checks out); a compressed save is saved in its own mode and block
/// size, byte for byte the file it was when nothing changed.
#[test]
fn encrypted_and_compressed_saves_open_and_save_in_their_container() {
    let dir = scratch("containers");
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/containers/godot4.4.1");
    let secret = dir.join("encrypted.sav");
    let packed = dir.join("compressed.sav");
    std::fs::copy(from.join("encrypted-pass.bin"), &secret).unwrap();
    std::fs::copy(from.join("exact-fastlz.bin"), &packed).unwrap();
    let packed_before = std::fs::read(&packed).unwrap();
    let server = Server::start(&[&secret, &packed]);

    let (status, body) = server.get("/api/files/0/children");
    assert_eq!(
        (status, body.as_str()),
        (200, r#"{"children":[],"from":0,"total":0}"#),
        "a locked file shows nothing"
    );
    let (_, body) = server.get("/api/files");
    assert!(body.contains(r#""locked":true"#), "{body}");
    let (status, body) = server.post("/api/files/0/unlock", r#"{"password":"wrong"}"#);
    assert_ne!(status, 200, "a wrong password opens nothing: {body}");
    assert!(body.contains("MD5"), "{body}");
    let (status, body) = server.post("/api/files/0/unlock", r#"{"password":"correct horse"}"#);
    assert_eq!(status, 200, "{body}");
    let (status, body) = server.post(
        "/api/files/0/edit",
        r#"{"op":"set","path":[0],"value":{"type":"Int","value":7}}"#,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(server.post("/api/files/0/save", "").0, 200);
    assert_eq!(server.post("/api/files/1/save", "").0, 200);
    drop(server);

    assert_eq!(std::fs::read(&packed).unwrap(), packed_before);
    let out = Command::new(env!("CARGO_BIN_EXE_gdvariant"))
        .args(["--password", "correct horse", "decode", "--format", "json"])
        .arg(&secret)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        text.lines().next(),
        Some(r#"{"type":"Int","value":7}"#),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A copy of the engine-made resource fixture `rel` (tests/fixtures/resource/) in `dir`.
fn resource_fixture(rel: &str, dir: &Path) -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/resource")
        .join(rel);
    let to = dir.join(rel.replace('/', "-"));
    std::fs::copy(from, &to).unwrap();
    to
}

/// The index of the child labelled `label` under `path` of file `file`.
fn child(server: &Server, file: usize, path: &str, label: &str) -> u64 {
    let (status, body) = server.get(&format!("/api/files/{file}/children?path={path}"));
    assert_eq!(status, 200, "{body}");
    let list: serde_json::Value = serde_json::from_str(&body).unwrap();
    let found = list["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == label)
        .unwrap_or_else(|| panic!("no {label} under {path}: {body}"));
    found["index"].as_u64().unwrap()
}

#[test]
fn resource_files_open_as_their_model_and_save_in_their_own_format() {
    use gdvariant::resource::ResourceFile;
    let dir = scratch("resource");
    let tres = resource_fixture("godot3.2/save.tres", &dir);
    let res = resource_fixture("godot4.4/save.res", &dir);
    let originals = [std::fs::read(&tres).unwrap(), std::fs::read(&res).unwrap()];
    let server = Server::start(&[&tres, &res]);
    for (i, path) in [&tres, &res].into_iter().enumerate() {
        let (_, body) = server.get(&format!("/api/files/{i}"));
        assert!(body.contains("resource file"), "{body}");
        // The model: main → properties → "hp".
        let main = child(&server, i, "0", "\"main\"");
        let props = child(&server, i, &format!("0,{main}"), "\"properties\"");
        let hp = child(&server, i, &format!("0,{main},{props}"), "\"hp\"");
        let set = format!(r#"{{"op":"set","path":[0,{main},{props},{hp}],"text":"100"}}"#);
        let (status, body) = server.post(&format!("/api/files/{i}/edit"), &set);
        assert_eq!(status, 200, "{body}");
        // Undone and saved: the engine's bytes again.
        assert_eq!(server.post(&format!("/api/files/{i}/undo"), "").0, 200);
        assert_eq!(server.post(&format!("/api/files/{i}/save"), "").0, 200);
        assert!(
            std::fs::read(path).unwrap() == originals[i],
            "{path:?}: not the engine's bytes"
        );
        // Redone and saved: the file as the library writes it with that one property set
        // (the library's writing is checked against the engines in resource_live.rs).
        assert_eq!(server.post(&format!("/api/files/{i}/redo"), "").0, 200);
        let (status, body) = server.post(&format!("/api/files/{i}/save"), "");
        assert_eq!(status, 200, "{body}");
        let mut want = ResourceFile::read(&originals[i]).unwrap();
        want.main.set("hp", gdvariant::Variant::Int(100));
        assert!(
            std::fs::read(path).unwrap() == want.write().unwrap(),
            "{path:?}"
        );
    }
    drop(server);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn config_files_open_as_sections_and_save_as_the_engine_does() {
    let dir = scratch("config");
    for (engine, text_form) in [("godot4.4", "godot4"), ("godot3.2", "godot3")] {
        let cfg = resource_fixture(&format!("{engine}/settings.cfg"), &dir);
        let server = Server::start(&[&cfg]);
        let (_, body) = server.get("/api/files/0");
        assert!(
            body.contains("ConfigFile"),
            "{engine} ({text_form}): {body}"
        );
        let player = child(&server, 0, "0", "\"player\"");
        let hp = child(&server, 0, &format!("0,{player}"), "\"hp\"");
        // The edits make_config.gd made with the engine: hp 100, a key and a section added.
        let edits = [
            format!(r#"{{"op":"set","path":[0,{player},{hp}],"text":"100"}}"#),
            format!(r#"{{"op":"insert","path":[0,{player}],"key_text":"\"level\"","text":"3"}}"#),
            r#"{"op":"insert","path":[0],"key_text":"\"extra\"","text":"{\"seen\": true}"}"#
                .to_string(),
        ];
        for e in &edits {
            let (status, body) = server.post("/api/files/0/edit", e);
            assert_eq!(status, 200, "{engine}: {e}: {body}");
        }
        let (status, body) = server.post("/api/files/0/save", "");
        assert_eq!(status, 200, "{body}");
        let engine_edit = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(format!("tests/fixtures/resource/{engine}/edited.cfg"));
        assert_eq!(
            std::fs::read_to_string(&cfg).unwrap(),
            std::fs::read_to_string(engine_edit).unwrap(),
            "{engine}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
