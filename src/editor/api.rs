//! The HTTP API (JSON) and the page, on axum: routes, the token check, bounds on requests.
//!
//! Each handler runs its work on a blocking thread under a time limit, holding only its
//! file's lock, so a slow request neither stalls the server nor other files.

use super::diff::diff;
use super::document::{Document, Reading};
use super::search::search;
use super::tree::{self, Edit};
use super::{Editor, EditorError};
use crate::framing::Framing;
use crate::guess::eras;
use crate::{json, text, Dialect, Variant};
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use subtle::ConstantTimeEq;

/// Largest request body (an edit's value).
const MAX_BODY: usize = 16 << 20;
/// Longest a request may work.
const TIME_LIMIT: Duration = Duration::from_secs(20);
/// Most bytes one hex request returns.
const MAX_HEX: usize = 1 << 16;
/// Most positions in a path.
const MAX_PATH: usize = 4096;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/editor.js");
const STYLE: &str = include_str!("assets/editor.css");

type Shared = Arc<Editor>;

pub(super) fn router(editor: Shared) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/editor.js", get(|| asset(SCRIPT, "text/javascript")))
        .route("/editor.css", get(|| asset(STYLE, "text/css")))
        .route("/api/files", get(files))
        .route("/api/files/{i}", get(file))
        .route("/api/files/{i}/reading", post(set_reading))
        .route("/api/files/{i}/unlock", post(unlock))
        .route("/api/files/{i}/children", get(children))
        .route("/api/files/{i}/node", get(node))
        .route("/api/files/{i}/hex", get(hex))
        .route("/api/files/{i}/at", get(at))
        .route("/api/files/{i}/search", get(find))
        .route("/api/files/{i}/edit", post(edit))
        .route(
            "/api/files/{i}/undo",
            post(|State(e): State<Shared>, Path(i): Path<usize>| step(e, i, true)),
        )
        .route(
            "/api/files/{i}/redo",
            post(|State(e): State<Shared>, Path(i): Path<usize>| step(e, i, false)),
        )
        .route("/api/files/{i}/save", post(save))
        .route("/api/files/{i}/download", get(download))
        .route("/api/diff", get(compare))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(editor.clone(), guard))
        .with_state(editor)
}

/// Refuses any request without the session's token (in `?token=` or `X-Gdvariant-Token`);
/// adds headers that keep other pages from framing or reading ours.
async fn guard(State(editor): State<Shared>, request: Request, next: Next) -> Response {
    let from_header = request
        .headers()
        .get("x-gdvariant-token")
        .and_then(|v| v.to_str().ok());
    let from_query = request
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|kv| kv.strip_prefix("token=")));
    let given = from_header.or(from_query).unwrap_or("");
    if !bool::from(given.as_bytes().ct_eq(editor.token.as_bytes())) {
        return (
            StatusCode::FORBIDDEN,
            Json(json!({"error": "missing or wrong token"})),
        )
            .into_response();
    }
    let mut response = next.run(request).await;
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
        ),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    response
}

/// The page, with the token its scripts need (the request had it, so the page may too).
async fn page(State(editor): State<Shared>) -> Response {
    let html = PAGE.replace("{{TOKEN}}", &editor.token);
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

async fn asset(body: &'static str, kind: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// An error as JSON: `{"error": message}`, with a status that says whose fault it was.
struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({"error": self.1}))).into_response()
    }
}

impl From<EditorError> for ApiError {
    fn from(e: EditorError) -> ApiError {
        let status = match e {
            EditorError::NoSuchNode => StatusCode::NOT_FOUND,
            EditorError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            EditorError::NeedsPassword => StatusCode::UNAUTHORIZED,
            EditorError::Io(..) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError(status, e.to_string())
    }
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message.into())
}

type Answer = Result<Json<Value>, ApiError>;

/// Runs `work` on file `i` on a blocking thread, within the time limit.
async fn with_file<T: Send + 'static>(
    editor: Shared,
    i: usize,
    work: impl FnOnce(&mut Document) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    if i >= editor.files.len() {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!(
                "no file {i}: files are 0 to {}",
                editor.files.len().saturating_sub(1)
            ),
        ));
    }
    blocking(move || {
        let mut doc = editor.files[i].lock().unwrap_or_else(|p| p.into_inner());
        work(&mut doc)
    })
    .await
}

/// Runs `work` on a blocking thread, within the time limit.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::time::timeout(TIME_LIMIT, tokio::task::spawn_blocking(work)).await {
        Ok(Ok(r)) => r,
        Ok(Err(_)) => Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the request failed".into(),
        )),
        Err(_) => Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the request took too long".into(),
        )),
    }
}

#[derive(Deserialize)]
struct DiffQuery {
    a: usize,
    b: usize,
}

/// Two files compared by path (`gdvariant edit a.sav b.sav`).
async fn compare(State(editor): State<Shared>, Query(q): Query<DiffQuery>) -> Answer {
    let n = editor.files.len();
    if q.a >= n || q.b >= n || q.a == q.b {
        return Err(bad(format!(
            "a and b are two different files of 0 to {}",
            n.saturating_sub(1)
        )));
    }
    blocking(move || {
        // Locked in index order, so two comparisons the other way round cannot deadlock.
        let (lo, hi) = (q.a.min(q.b), q.a.max(q.b));
        let lock = |i: usize| editor.files[i].lock().unwrap_or_else(|p| p.into_inner());
        let (mut first, mut second) = (lock(lo), lock(hi));
        let (a, b) = if q.a < q.b {
            (&mut *first, &mut *second)
        } else {
            (&mut *second, &mut *first)
        };
        Ok(Json(serde_json::to_value(diff(a, b)?).unwrap_or_default()))
    })
    .await
}

/// A file's summary for the page.
fn summary(i: usize, doc: &Document) -> Value {
    let r = doc.reading;
    let (undo, redo) = doc.history();
    json!({
        "index": i,
        "name": doc.path.file_name().map(|n| n.to_string_lossy().into_owned()),
        "path": doc.path.display().to_string(),
        "size": doc.bytes().len(),
        "container": doc.container.name(),
        "locked": doc.locked,
        "writable": doc.container.writable(),
        "reading": {"dialect": r.dialect.name(), "version": r.version.to_string(), "framing": r.framing.name()},
        "described": format!("{} {}, {}", r.dialect, r.version, r.framing),
        "confidence": doc.confidence.to_string(),
        "frames": doc.frames().len(),
        "error": doc.error.as_ref().map(|(at, m)| json!({"offset": at, "message": m})),
        "dirty": doc.dirty(),
        "undo": undo,
        "redo": redo,
    })
}

/// Every file, and the readings the page may choose from.
async fn files(State(editor): State<Shared>) -> Answer {
    let mut list = Vec::new();
    for i in 0..editor.files.len() {
        list.push(with_file(editor.clone(), i, move |d| Ok(summary(i, d))).await?);
    }
    let dialects: Vec<Value> = [Dialect::Godot4, Dialect::Godot3, Dialect::Pandemonium]
        .into_iter()
        .map(|d| {
            let versions: Vec<Value> = eras(d)
                .iter()
                .map(|e| json!({"version": e.last.to_string(), "label": e.to_string()}))
                .collect();
            json!({"name": d.name(), "label": d.to_string(), "versions": versions})
        })
        .collect();
    let framings: Vec<Value> = [
        Framing::Bare,
        Framing::STORE_VAR,
        Framing::StoreVar { big_endian: true },
        Framing::PacketStream,
    ]
    .into_iter()
    .map(|f| json!({"name": f.name(), "label": f.to_string()}))
    .collect();
    Ok(Json(
        json!({"files": list, "dialects": dialects, "framings": framings}),
    ))
}

async fn file(State(editor): State<Shared>, Path(i): Path<usize>) -> Answer {
    with_file(editor, i, move |d| Ok(Json(summary(i, d)))).await
}

#[derive(Deserialize)]
struct ReadingBody {
    dialect: String,
    version: String,
    framing: String,
}

async fn set_reading(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Json(b): Json<ReadingBody>,
) -> Answer {
    let dialect: Dialect = b.dialect.parse().map_err(|_| bad("unknown dialect"))?;
    let version = b.version.parse().map_err(|_| bad("unknown version"))?;
    let framing: Framing = b.framing.parse().map_err(|_| bad("unknown framing"))?;
    with_file(editor, i, move |d| {
        d.set_reading(Reading {
            dialect,
            version,
            framing,
        });
        Ok(Json(summary(i, d)))
    })
    .await
}

#[derive(Deserialize)]
struct UnlockBody {
    password: String,
}

/// Opens a locked file with its password.
async fn unlock(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Json(b): Json<UnlockBody>,
) -> Answer {
    with_file(editor, i, move |d| {
        d.unlock(Some(&b.password))?;
        Ok(Json(summary(i, d)))
    })
    .await
}

/// A path as the page sends it: positions separated by commas (`3,0,12`; empty for the top).
fn parse_path(s: &str) -> Result<Vec<usize>, ApiError> {
    if s.is_empty() {
        return Ok(Vec::new());
    }
    let p: Vec<usize> = s
        .split(',')
        .take(MAX_PATH + 1)
        .map(|x| {
            x.parse()
                .map_err(|_| bad("a path is positions separated by commas"))
        })
        .collect::<Result<_, _>>()?;
    if p.len() > MAX_PATH {
        return Err(bad("path too long"));
    }
    Ok(p)
}

#[derive(Deserialize)]
struct ChildrenQuery {
    #[serde(default)]
    path: String,
    #[serde(default)]
    from: usize,
    #[serde(default = "page_size")]
    count: usize,
}

fn page_size() -> usize {
    200
}

async fn children(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Query(q): Query<ChildrenQuery>,
) -> Answer {
    let path = parse_path(&q.path)?;
    with_file(editor, i, move |d| {
        let (total, nodes) = tree::children(d, &path, q.from, q.count)?;
        Ok(Json(
            json!({"total": total, "from": q.from, "children": nodes}),
        ))
    })
    .await
}

#[derive(Deserialize)]
struct PathQuery {
    path: String,
}

async fn node(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Query(q): Query<PathQuery>,
) -> Answer {
    let path = parse_path(&q.path)?;
    with_file(editor, i, move |d| {
        let n = tree::node(d, &path)?;
        let pointer = tree::pointer(d, &path)?;
        Ok(Json(json!({"node": n, "pointer": pointer})))
    })
    .await
}

#[derive(Deserialize)]
struct HexQuery {
    from: usize,
    len: usize,
}

async fn hex(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Query(q): Query<HexQuery>,
) -> Answer {
    with_file(editor, i, move |d| {
        let b = d.bytes();
        let from = q.from.min(b.len());
        let to = from.saturating_add(q.len.min(MAX_HEX)).min(b.len());
        let hex: String = b[from..to].iter().map(|x| format!("{x:02x}")).collect();
        Ok(Json(json!({"from": from, "hex": hex, "size": b.len()})))
    })
    .await
}

#[derive(Deserialize)]
struct AtQuery {
    offset: usize,
}

/// The node and the `explain` line at a byte.
async fn at(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Query(q): Query<AtQuery>,
) -> Answer {
    with_file(editor, i, move |d| {
        let Some(f) = d.frame_at(q.offset) else {
            return Ok(Json(json!({"path": null, "line": null})));
        };
        let frame = d.frame(f)?;
        let mut path = vec![f];
        path.extend(frame.spans.path_at(q.offset));
        let line = d.explain_at(f, q.offset)?.map(|l| {
            json!({"offset": l.offset, "len": l.len, "field": l.field, "value": l.value, "description": l.description})
        });
        Ok(Json(json!({"path": path, "line": line})))
    })
    .await
}

#[derive(Deserialize)]
struct SearchQuery {
    q: String,
    #[serde(default)]
    frame: usize,
}

async fn find(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Query(q): Query<SearchQuery>,
) -> Answer {
    if q.q.is_empty() || q.q.len() > 1000 {
        return Err(bad("a search is 1 to 1000 bytes"));
    }
    with_file(editor, i, move |d| {
        Ok(Json(
            serde_json::to_value(search(d, &q.q, q.frame)?).unwrap_or_default(),
        ))
    })
    .await
}

/// An edit as the page sends it. A value is given in the JSON form (`value`) or in the
/// engine's text form (`text`); a Dictionary key likewise (`key` / `key_text`).
#[derive(Deserialize)]
struct EditBody {
    op: String,
    path: Vec<usize>,
    #[serde(default)]
    at: Option<usize>,
    value: Option<Value>,
    text: Option<String>,
    key: Option<Value>,
    key_text: Option<String>,
}

#[derive(Serialize)]
struct Edited {
    frame: usize,
    file: Value,
}

fn value_of(
    json_form: Option<Value>,
    text_form: Option<String>,
    dialect: Dialect,
) -> Result<Option<Variant>, ApiError> {
    let refused = |m: String| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m);
    match (json_form, text_form) {
        (Some(j), _) => json::from_json(&j)
            .map(Some)
            .map_err(|e| refused(e.to_string())),
        (None, Some(t)) => text::from_text(&t, dialect)
            .map(Some)
            .map_err(|e| refused(e.to_string())),
        (None, None) => Ok(None),
    }
}

async fn edit(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
    Json(b): Json<EditBody>,
) -> Answer {
    if b.path.len() > MAX_PATH {
        return Err(bad("path too long"));
    }
    with_file(editor, i, move |d| {
        let dialect = d.reading.dialect;
        let value = value_of(b.value, b.text, dialect)?;
        let key = value_of(b.key, b.key_text, dialect)?;
        let need =
            |v: Option<Variant>| v.ok_or_else(|| bad("a value is needed (`value` or `text`)"));
        let e = match b.op.as_str() {
            "set" => Edit::Set {
                path: b.path,
                value: need(value)?,
            },
            "insert" => Edit::Insert {
                path: b.path,
                at: b.at.unwrap_or(usize::MAX),
                key,
                value: need(value)?,
            },
            "remove" => Edit::Remove { path: b.path },
            _ => return Err(bad("op is set, insert or remove")),
        };
        let frame = tree::apply(d, e)?;
        Ok(Json(
            serde_json::to_value(Edited {
                frame,
                file: summary(i, d),
            })
            .unwrap_or_default(),
        ))
    })
    .await
}

/// Undo (`back`) or redo.
async fn step(editor: Shared, i: usize, back: bool) -> Answer {
    with_file(editor, i, move |d| {
        let frame = if back { d.undo() } else { d.redo() };
        Ok(Json(json!({"frame": frame, "file": summary(i, d)})))
    })
    .await
}

async fn save(State(editor): State<Shared>, Path(i): Path<usize>) -> Answer {
    with_file(editor, i, move |d| {
        let backup = d.save()?;
        Ok(Json(
            json!({"backup": backup.display().to_string(), "file": summary(i, d)}),
        ))
    })
    .await
}

async fn download(
    State(editor): State<Shared>,
    Path(i): Path<usize>,
) -> Result<Response, ApiError> {
    with_file(editor, i, move |d| {
        let name = d
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let safe: String = name
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || "._-".contains(*c))
            .collect();
        let bytes = super::container::wrap(&d.container, d.bytes())?;
        Ok((
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{safe}\""),
                ),
            ],
            bytes,
        )
            .into_response())
    })
    .await
}
