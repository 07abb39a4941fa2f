import { dataEvents, expectShape, startLoopbackFake } from "./loopback-fake";

export const LIBRARY_ANSWER = ["The", " manual", " says", " yes"];
export const LIBRARY_DOCUMENT = { title: "Manual", url: "https://docs.example/manual" };

/** A loopback AIProxy Library: POST /api/library/ask {model, query, libraryId, stream}; a wrong library is refused. */
export const startFakeAiproxyLibrary = (key: string, libraryId: string) =>
  startLoopbackFake(key, ({ path, body }) => {
    if (path !== "/api/library/ask") return Response.json({ success: false, message: "not found" }, { status: 404 });
    expectShape(
      typeof body?.query === "string" && body.query && typeof body.model === "string",
      "query and model are required",
    );
    if (body.libraryId !== libraryId) return Response.json({ success: false, message: "library not found" });
    if (!body.stream)
      return Response.json({
        success: true,
        message: "",
        answer: LIBRARY_ANSWER.join(""),
        documents: [LIBRARY_DOCUMENT],
      });
    return dataEvents([
      ...LIBRARY_ANSWER.map((content) => ({ content, finish: false, model: body.model, documents: [] })),
      { content: "", finish: true, model: body.model, documents: [LIBRARY_DOCUMENT] },
    ]);
  });
