<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>About</name>
    <message>
        <source>A desktop host for AI coding agents: every edit and command is shown first and approved from the keyboard.</source>
        <translation>Ein Desktop-Host für KI-Coding-Agenten: Jede Änderung und jeder Befehl wird zuerst gezeigt und per Tastatur erlaubt.</translation>
    </message>
    <message>
        <source>Settings: {config}&lt;br&gt;Data: {data}&lt;br&gt;Logs: {logs}</source>
        <translation>Einstellungen: {config}&lt;br&gt;Daten: {data}&lt;br&gt;Protokolle: {logs}</translation>
    </message>
    <message>
        <source>About Agent Desk</source>
        <translation>Über Agent Desk</translation>
    </message>
</context>
<context>
    <name>AgentHung</name>
    <message>
        <source>{name} has not answered a ping for {seconds} s; it may be hung. Restart it if it stays unresponsive.</source>
        <translation>{name} hat {seconds} s lang nicht auf einen Ping geantwortet und hängt vielleicht. Starte ihn neu, wenn er nicht mehr reagiert.</translation>
    </message>
    <message>
        <source>{name} is responding again.</source>
        <translation>{name} antwortet wieder.</translation>
    </message>
    <message>
        <source>The agent stopped reading its input for {seconds} s; it was ended as hung. The next prompt starts it again.</source>
        <translation>Der Agent hat {seconds} s lang seine Eingaben nicht mehr gelesen und wurde als hängend beendet. Die nächste Eingabe startet ihn neu.</translation>
    </message>
</context>
<context>
    <name>AgentName</name>
    <message>
        <source>Built-in agent</source>
        <translation>Eingebauter Agent</translation>
    </message>
</context>
<context>
    <name>AgentNotice</name>
    <message>
        <source>a cancellation</source>
        <extracomment>The host&apos;s turn id (``None`` between turns). ``stop`` was sent in this turn: it ends as ``stopped``. aionrs 0.2.x: cumulative usage, ``stop`` = quit. The message of a fatal error in this turn: the turn then ends as ``error``. Name and category of every tool call of the conversation, by call id. The MCP servers sent to the agent, and their typed status. The model it runs (``--model``, or what it reports), and the last choice shown.</extracomment>
        <translation>einen Abbruch</translation>
    </message>
    <message>
        <source>The agent reported {what} for an unknown tool call {call_id}.</source>
        <translation>Der Agent hat {what} für einen unbekannten Werkzeugaufruf {call_id} gemeldet.</translation>
    </message>
    <message>
        <source>a result</source>
        <translation>ein Ergebnis</translation>
    </message>
    <message>
        <source>This agent does not take images; not sent: {names}</source>
        <translation>Dieser Agent nimmt keine Bilder an; nicht gesendet: {names}</translation>
    </message>
    <message>
        <source>{name} could not switch to {choice}: {error}</source>
        <translation>{name} konnte nicht zu {choice} wechseln: {error}</translation>
    </message>
</context>
<context>
    <name>AgentStart</name>
    <message>
        <source>{message}
{stderr}</source>
        <translation>{message}
{stderr}</translation>
    </message>
    <message>
        <source>The agent {agent} needs an API key (profile {subject}).</source>
        <translation>Der Agent {agent} braucht einen API-Schlüssel (Profil {subject}).</translation>
    </message>
    <message>
        <source>The agent {agent} is not installed ({subject} was not found).</source>
        <translation>Der Agent {agent} ist nicht installiert ({subject} wurde nicht gefunden).</translation>
    </message>
    <message>
        <source>Cannot run {program}: {error}</source>
        <extracomment>The agent&apos;s own session id to resume, where the protocol can. Seconds the handshake may take. Longest stdout line read (longer ones are skipped and reported). Exceptions of ``_handshake`` that mean &quot;the agent refused or broke the handshake&quot;. Set once the agent is ready; only then is its exit reported as ``agent_exited``. Whether the next exit is one we asked for (stop, shutdown, a failed start).</extracomment>
        <translation>{program} lässt sich nicht ausführen: {error}</translation>
    </message>
    <message>
        <source>{name} was shut down while it was starting</source>
        <translation>{name} wurde während des Starts beendet</translation>
    </message>
    <message>
        <source>{name} failed to start: {error}</source>
        <translation>{name} konnte nicht starten: {error}</translation>
    </message>
    <message>
        <source>{name} exited with code {code} before it was ready</source>
        <translation>{name} wurde mit Code {code} beendet, bevor er bereit war</translation>
    </message>
    <message>
        <source>{name} did not become ready within {seconds} s</source>
        <translation>{name} war nach {seconds} s noch nicht bereit</translation>
    </message>
</context>
<context>
    <name>Announce</name>
    <message>
        <source>Agent answered: {text}</source>
        <extracomment>Characters of an answer that are spoken; longer answers end with &quot;…&quot;. Markdown marks a reader would spell out: emphasis, code ticks, heading and quote marks.</extracomment>
        <translation>Antwort des Agenten: {text}</translation>
    </message>
    <message>
        <source>The agent finished without an answer</source>
        <translation>Der Agent ist ohne Antwort fertig</translation>
    </message>
    <message>
        <source>The agent stopped</source>
        <translation>Der Agent wurde angehalten</translation>
    </message>
    <message>
        <source>The agent exited</source>
        <translation>Der Agent wurde beendet</translation>
    </message>
    <message>
        <source>an error</source>
        <translation>ein Fehler</translation>
    </message>
    <message>
        <source>The turn failed: {message}</source>
        <translation>Der Durchgang ist fehlgeschlagen: {message}</translation>
    </message>
</context>
<context>
    <name>AppContext</name>
    <message>
        <source>The agent cannot run: {exc}</source>
        <extracomment>For the first window only (taken when it opens).</extracomment>
        <translation>Der Agent kann nicht laufen: {exc}</translation>
    </message>
    <message>
        <source>Open Workspace</source>
        <translation>Arbeitsbereich öffnen</translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message>
        <source>Approval request: {what}</source>
        <extracomment>&quot;Deny always&quot; is Ctrl+Shift+N: two modifiers, never typed by accident (a plain letter could be).</extracomment>
        <translation>Freigabeanfrage: {what}</translation>
    </message>
    <message>
        <source>Request position</source>
        <translation>Position der Anfrage</translation>
    </message>
    <message>
        <source>Tab to review</source>
        <translation>Tab zum Prüfen</translation>
    </message>
    <message>
        <source>Press Tab to review this request</source>
        <translation>Tab drücken, um diese Anfrage zu prüfen</translation>
    </message>
    <message>
        <source>Reason for denying — Enter: deny, Esc: back</source>
        <translation>Grund der Ablehnung — Enter: ablehnen, Esc: zurück</translation>
    </message>
    <message>
        <source>Reason for denying</source>
        <translation>Grund der Ablehnung</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>Approve once</source>
        <translation>Einmal erlauben</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>Immer</translation>
    </message>
    <message>
        <source>Approve always: {category} tools in this conversation</source>
        <translation>Immer erlauben: {category}-Werkzeuge in dieser Unterhaltung</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Reason…</source>
        <translation>Grund…</translation>
    </message>
    <message>
        <source>Deny with reason</source>
        <translation>Mit Grund ablehnen</translation>
    </message>
    <message>
        <source>⇧N</source>
        <translation>⇧N</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>Deny always: {category} tools in this conversation</source>
        <translation>Immer ablehnen: {category}-Werkzeuge in dieser Unterhaltung</translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <translation>Tastenkürzel: {keys}</translation>
    </message>
    <message>
        <source>Approving…</source>
        <translation>Wird erlaubt…</translation>
    </message>
    <message>
        <source>Denying…</source>
        <translation>Wird abgelehnt…</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
    <message>
        <source>{index} of {total}</source>
        <translation>{index} von {total}</translation>
    </message>
    <message>
        <source>Y or Enter approves once</source>
        <translation>Y oder Enter erlaubt einmal</translation>
    </message>
    <message>
        <source>A approves always</source>
        <translation>A erlaubt immer</translation>
    </message>
    <message>
        <source>N or Escape denies</source>
        <translation>N oder Escape lehnt ab</translation>
    </message>
    <message>
        <source>Shift+N denies with a reason</source>
        <translation>Umschalt+N lehnt mit Grund ab</translation>
    </message>
    <message>
        <source>Ctrl+Shift+N denies always</source>
        <translation>Strg+Umschalt+N lehnt immer ab</translation>
    </message>
    <message>
        <source>Tab goes to the next request, Shift+Tab back to the prompt</source>
        <translation>Tab geht zur nächsten Anfrage, Umschalt+Tab zurück zur Eingabe</translation>
    </message>
    <message>
        <source>Keys: {keys}.</source>
        <translation>Tasten: {keys}.</translation>
    </message>
    <message>
        <source>Approval needed: {what}. Tab to review it, Y approves, N denies.</source>
        <translation>Freigabe nötig: {what}. Tab zum Prüfen, Y erlaubt, N lehnt ab.</translation>
    </message>
</context>
<context>
    <name>Approvals</name>
    <message>
        <source>The agent asked to run {name} with the call id {call_id}, which another request of this turn already has; it was denied so that no decision meant for one call is applied to another.</source>
        <extracomment>The policy name a request with a reused call id is denied by. Call ids seen in the turn ``_seen_turn``: True when the host was asked to decide it.</extracomment>
        <translation>Der Agent wollte {name} mit der Aufruf-ID {call_id} ausführen, die schon eine andere Anfrage dieses Durchgangs hat; der Aufruf wurde abgelehnt, damit keine Entscheidung für einen Aufruf auf einen anderen angewendet wird.</translation>
    </message>
</context>
<context>
    <name>AssistantView</name>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the answer</source>
        <translation>Die Antwort kopieren</translation>
    </message>
    <message>
        <source>Copy the answer as markdown</source>
        <translation>Die Antwort als Markdown kopieren</translation>
    </message>
    <message>
        <source>Assistant message</source>
        <extracomment>Time one turn of the loop may spend rendering finished blocks (at least one step is taken; a step takes 1–3 ms). Least time between two renders of the open block (it changes with every delta). Characters per document before the next finished blocks start a new one: inserting into a ``QTextDocument`` costs time in proportion to its size, so documents stay small. Documents per page (see ``AssistantView._pages``). Characters handed to the block splitter per frame (a reply reopened whole is cut over frames). Its code blocks&apos; &quot;Copy&quot; links, drawn on hover and keyboard focus only. The open block, rendered again as it grows: a document as tall as its content (a rich-text label would lay its text out again for every width its layout asks about).
----------
Code of each &quot;Copy&quot; link: of the finished blocks, and of the open block. Goes on with the work left at the next turn of the loop (not a frame later: a reply renders as fast as small steps allow, and each turn of the loop stays short).
----------
Widgets holding ``PAGE_DOCUMENTS`` documents each: a document that grows lays out its page and the pages, not every document of a long answer. Finished blocks not shown yet, each at its next step: markdown, HTML, a parsed document, or the position its &quot;Copy&quot; links start at in the last document.</extracomment>
        <translation>Nachricht des Agenten</translation>
    </message>
</context>
<context>
    <name>AttachmentChips</name>
    <message>
        <source>Remove {0}</source>
        <translation>{0} entfernen</translation>
    </message>
    <message>
        <source>Remove {0} from the next prompt</source>
        <translation>{0} aus der nächsten Nachricht entfernen</translation>
    </message>
    <message>
        <source>Attached: {0}</source>
        <translation>Angehängt: {0}</translation>
    </message>
</context>
<context>
    <name>CardLine</name>
    <message>
        <source>Decision</source>
        <translation>Entscheidung</translation>
    </message>
    <message>
        <source>Show details</source>
        <translation>Details anzeigen</translation>
    </message>
    <message>
        <source>Show what this call does and what it printed</source>
        <translation>Zeigen, was dieser Aufruf tut und was er ausgegeben hat</translation>
    </message>
    <message>
        <source>Hide ▾</source>
        <translation>Ausblenden ▾</translation>
    </message>
    <message>
        <source>Details ▸</source>
        <translation>Details ▸</translation>
    </message>
</context>
<context>
    <name>CatalogueBox</name>
    <message>
        <source>looking…</source>
        <extracomment>Lines kept in the install log (npm can be chatty). True once the programs were looked up (tests wait for it before closing). Keys of the agents found installed by the last look-up.</extracomment>
        <translation>wird gesucht…</translation>
    </message>
    <message>
        <source>Install</source>
        <translation>Installieren</translation>
    </message>
    <message>
        <source>Install {title}</source>
        <translation>{title} installieren</translation>
    </message>
    <message>
        <source>npm install {spec} into Agent Desk&apos;s data folder</source>
        <translation>npm install {spec} in den Datenordner von Agent Desk</translation>
    </message>
    <message>
        <source>Install progress</source>
        <translation>Installationsfortschritt</translation>
    </message>
    <message>
        <source>Not installed · {spec}</source>
        <translation>Nicht installiert · {spec}</translation>
    </message>
    <message>
        <source>Reinstall</source>
        <translation>Neu installieren</translation>
    </message>
    <message>
        <source>installing…</source>
        <translation>wird installiert…</translation>
    </message>
    <message>
        <source>install failed — see the log ({spec})</source>
        <translation>Installation fehlgeschlagen — siehe Protokoll ({spec})</translation>
    </message>
</context>
<context>
    <name>ChangesSummary</name>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Review the changes of this turn</source>
        <translation>Die Änderungen dieses Durchgangs prüfen</translation>
    </message>
    <message>
        <source>Every file this turn changed, full-window</source>
        <translation>Jede Datei, die dieser Durchgang geändert hat, im ganzen Fenster</translation>
    </message>
    <message>
        <source>Restore to before this turn</source>
        <translation>Auf den Stand vor diesem Durchgang zurücksetzen</translation>
    </message>
    <message>
        <source>Restore the files to before this turn</source>
        <translation>Die Dateien auf den Stand vor diesem Durchgang zurücksetzen</translation>
    </message>
    <message>
        <source>Changes · 1 file</source>
        <translation>Änderungen · 1 Datei</translation>
    </message>
    <message>
        <source>Changes · {n} files</source>
        <translation>Änderungen · {n} Dateien</translation>
    </message>
    <message>
        <source>+{n} more</source>
        <translation>+{n} weitere</translation>
    </message>
    <message>
        <source>Changes of turn {turn}: {title}, {added} lines added, {removed} removed: {names}</source>
        <translation>Änderungen von Durchgang {turn}: {title}, {added} Zeilen hinzugefügt, {removed} entfernt: {names}</translation>
    </message>
    <message>
        <source>Stop the running turn first: restoring now would mix with its edits</source>
        <translation>Halte zuerst den laufenden Durchgang an: Ein Zurücksetzen jetzt würde sich mit seinen Änderungen vermischen</translation>
    </message>
    <message>
        <source>Put every file back as it was before this turn (you can undo it)</source>
        <translation>Jede Datei wieder so herstellen, wie sie vor diesem Durchgang war (lässt sich rückgängig machen)</translation>
    </message>
</context>
<context>
    <name>Checkpoints</name>
    <message>
        <source>The workspace folder is gone, so its state could not be recorded.</source>
        <translation>Der Ordner des Arbeitsbereichs ist verschwunden, sein Zustand konnte nicht aufgezeichnet werden.</translation>
    </message>
    <message>
        <source>The disk is full, so the workspace&apos;s state could not be recorded.</source>
        <translation>Der Datenträger ist voll, der Zustand des Arbeitsbereichs konnte nicht aufgezeichnet werden.</translation>
    </message>
    <message>
        <source>The workspace&apos;s state could not be recorded.</source>
        <translation>Der Zustand des Arbeitsbereichs konnte nicht aufgezeichnet werden.</translation>
    </message>
    <message>
        <source>Some files could not be read and were left as last recorded: {names}.</source>
        <translation>Einige Dateien konnten nicht gelesen werden und blieben wie zuletzt aufgezeichnet: {names}.</translation>
    </message>
    <message>
        <source>Checkpoints: {problem}</source>
        <translation>Wiederherstellungspunkte: {problem}</translation>
    </message>
</context>
<context>
    <name>CheckpointsBridge</name>
    <message>
        <source>The checkpoints could not be read or written: {error}</source>
        <translation>Die Prüfpunkte konnten nicht gelesen oder geschrieben werden: {error}</translation>
    </message>
</context>
<context>
    <name>CheckpointsController</name>
    <message>
        <source>No changes recorded in this conversation yet</source>
        <translation>In diesem Gespräch sind noch keine Änderungen aufgezeichnet</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <source>Ask every time</source>
        <extracomment>``ApprovalMode`` values (``desktop.core.events``; a test keeps them equal). Plain strings, because the composer is painted before the core is imported (see ``desktop.ui.startup``).</extracomment>
        <translation>Jedes Mal fragen</translation>
    </message>
    <message>
        <source>Auto-approve edits</source>
        <translation>Änderungen automatisch erlauben</translation>
    </message>
    <message>
        <source>Approve everything (yolo)</source>
        <translation>Alles erlauben (yolo)</translation>
    </message>
    <message>
        <source>Ask</source>
        <extracomment>Short mode labels for a narrow window (the full label stays in the tooltip and the accessible name).</extracomment>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Auto-edit</source>
        <translation>Auto-Änderung</translation>
    </message>
    <message>
        <source>Yolo</source>
        <translation>Yolo</translation>
    </message>
    <message>
        <source>Attach…</source>
        <extracomment>More files for a prompt from its text (the ``@`` mentions: ``composer_context``). The attachment chips that replace the &quot;📎 names&quot; line, once installed. Buttons added by window plug-ins (``add_action``), by name.
----------
Narrow window: short labels (``_fit``); the row&apos;s width with the full ones. Labels of the buttons that show their icon alone while compact.</extracomment>
        <translation>Anhängen…</translation>
    </message>
    <message>
        <source>Attach files</source>
        <translation>Dateien anhängen</translation>
    </message>
    <message>
        <source>Attach files to the next prompt</source>
        <translation>Dateien an die nächste Eingabe anhängen</translation>
    </message>
    <message>
        <source>Clear files</source>
        <translation>Dateien entfernen</translation>
    </message>
    <message>
        <source>Remove the attached files from the next prompt</source>
        <translation>Die angehängten Dateien aus der nächsten Eingabe entfernen</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Anhalten</translation>
    </message>
    <message>
        <source>Stop the agent</source>
        <translation>Den Agenten anhalten</translation>
    </message>
    <message>
        <source>Stop the running turn (Esc in the prompt, or Ctrl+.)</source>
        <translation>Den laufenden Durchgang anhalten (Esc in der Eingabe oder Strg+.)</translation>
    </message>
    <message>
        <source>Send</source>
        <translation>Senden</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>Die Eingabe senden</translation>
    </message>
    <message>
        <source>Send the prompt (Enter)</source>
        <translation>Die Eingabe senden (Enter)</translation>
    </message>
</context>
<context>
    <name>ComposerContext</name>
    <message>
        <source>This agent does not take images; not attached: {0}</source>
        <translation>Dieser Agent nimmt keine Bilder an; nicht angehängt: {0}</translation>
    </message>
    <message>
        <source>Images larger than 20 MB are not sent; not attached: {0}</source>
        <translation>Bilder über 20 MB werden nicht gesendet; nicht angehängt: {0}</translation>
    </message>
    <message>
        <source>The pasted image could not be saved</source>
        <translation>Das eingefügte Bild konnte nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Listing the workspace&apos;s files…</source>
        <translation>Dateien des Arbeitsbereichs werden aufgelistet…</translation>
    </message>
    <message>
        <source>Files in {0}</source>
        <translation>Dateien in {0}</translation>
    </message>
    <message>
        <source>Start a new conversation</source>
        <translation>Neue Unterhaltung beginnen</translation>
    </message>
    <message>
        <source>Clear the context: go on in a new conversation (this one is kept)</source>
        <translation>Kontext leeren: in einer neuen Unterhaltung weiter (diese bleibt erhalten)</translation>
    </message>
    <message>
        <source>Choose the approval mode and always-rules</source>
        <translation>Freigabemodus und Immer-Regeln wählen</translation>
    </message>
    <message>
        <source>Choose the model the agent uses</source>
        <translation>Das Modell wählen, das der Agent nutzt</translation>
    </message>
    <message>
        <source>Commands</source>
        <extracomment>Desk commands offered only while the agent offers what they choose from. Whether the agent offers models to choose from (``/model`` is offered then only).</extracomment>
        <translation>Befehle</translation>
    </message>
</context>
<context>
    <name>ConfirmDeleteBar</name>
    <message>
        <source>Confirm deletion</source>
        <translation>Löschen bestätigen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the conversation</source>
        <translation>Die Unterhaltung löschen</translation>
    </message>
    <message>
        <source>Delete {title}? You can undo this until you close the window.</source>
        <translation>{title} löschen? Das lässt sich rückgängig machen, bis das Fenster geschlossen wird.</translation>
    </message>
</context>
<context>
    <name>Connection</name>
    <message>
        <source>The key was rejected (HTTP 401): {body}</source>
        <translation>Der Schlüssel wurde abgelehnt (HTTP 401): {body}</translation>
    </message>
    <message>
        <source>The key may not use this model (HTTP 403): {body}</source>
        <translation>Der Schlüssel darf dieses Modell nicht nutzen (HTTP 403): {body}</translation>
    </message>
    <message>
        <source>Not found (HTTP 404): check the base URL and the model. {body}</source>
        <translation>Nicht gefunden (HTTP 404): Basis-URL und Modell prüfen. {body}</translation>
    </message>
    <message>
        <source>{url} did not answer in time.</source>
        <translation>{url} hat nicht rechtzeitig geantwortet.</translation>
    </message>
    <message>
        <source>Could not connect to {url}: {reason}</source>
        <translation>Keine Verbindung zu {url}: {reason}</translation>
    </message>
    <message>
        <source>The API answered HTTP {status}: {body}</source>
        <translation>Die API antwortete mit HTTP {status}: {body}</translation>
    </message>
    <message>
        <source>The test failed: {kind}: {exc}</source>
        <translation>Der Test ist fehlgeschlagen: {kind}: {exc}</translation>
    </message>
    <message>
        <source>Connected to {url}: the key and model {model} work.</source>
        <translation>Verbunden mit {url}: Schlüssel und Modell {model} funktionieren.</translation>
    </message>
</context>
<context>
    <name>ConversationActions</name>
    <message>
        <source>Export as {name}</source>
        <extracomment>Deleted conversations, most recent last: what Undo brings back. Conversations being deleted: a reload meanwhile does not list them again.</extracomment>
        <translation>Als {name} exportieren</translation>
    </message>
    <message>
        <source>Export failed: {exc}</source>
        <translation>Export fehlgeschlagen: {exc}</translation>
    </message>
    <message>
        <source>Exported to {path}</source>
        <translation>Exportiert nach {path}</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>Umbenennen</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>Als Markdown exportieren…</translation>
    </message>
    <message>
        <source>Export as JSON…</source>
        <translation>Als JSON exportieren…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
</context>
<context>
    <name>ConversationList</name>
    <message>
        <source>Conversations</source>
        <translation>Unterhaltungen</translation>
    </message>
    <message>
        <source>Arrow keys open a conversation, F2 renames, Delete deletes</source>
        <translation>Pfeiltasten öffnen eine Unterhaltung, F2 benennt um, Entf löscht</translation>
    </message>
</context>
<context>
    <name>ConversationView</name>
    <message>
        <source>Jump to latest</source>
        <extracomment>Minimum time between two repaints of streamed text (60 per second). How close to the bottom (pixels) still counts as &quot;at the bottom&quot; (the view follows new text). Gap between the &quot;Jump to latest&quot; button and the bottom of the conversation. Share of the column a prompt may take before it wraps (never less than ``_BUBBLE_MIN``). The widgets built now (near the viewport, or kept: see ``keeps``), by entry key. What is shown that is not an entry (a turn&apos;s changes), each below the entry of its key. Tool cards opened or closed, by key: a row built again shows them the same.</extracomment>
        <translation>Zum Neuesten</translation>
    </message>
    <message>
        <source>Scroll to the latest message (Ctrl+End)</source>
        <translation>Zur neuesten Nachricht scrollen (Strg+Ende)</translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation>Angehalten.</translation>
    </message>
</context>
<context>
    <name>Decision</name>
    <message>
        <source>Ask every time</source>
        <extracomment>Qt&apos;s translation (``lupdate`` finds ``translate(context, text)`` calls by that name). The composer&apos;s names of the approval modes (the composer cannot import the core).</extracomment>
        <translation>Jedes Mal fragen</translation>
    </message>
    <message>
        <source>Auto-approve edits</source>
        <translation>Änderungen automatisch erlauben</translation>
    </message>
    <message>
        <source>Approve everything</source>
        <translation>Alles erlauben</translation>
    </message>
    <message>
        <source>Approved by you, always for {label}</source>
        <translation>Von dir erlaubt, immer für {label}</translation>
    </message>
    <message>
        <source>Denied by you, always for {label}</source>
        <translation>Von dir abgelehnt, immer für {label}</translation>
    </message>
    <message>
        <source>Approved by you</source>
        <translation>Von dir erlaubt</translation>
    </message>
    <message>
        <source>Denied by you</source>
        <translation>Von dir abgelehnt</translation>
    </message>
    <message>
        <source>Allowed by mode {mode}</source>
        <translation>Erlaubt durch den Modus {mode}</translation>
    </message>
    <message>
        <source>Denied by mode {mode}</source>
        <translation>Abgelehnt durch den Modus {mode}</translation>
    </message>
    <message>
        <source>Allowed by your always-rule for {rule}</source>
        <translation>Erlaubt durch deine Immer-Regel für {rule}</translation>
    </message>
    <message>
        <source>Denied by your always-rule for {rule}</source>
        <translation>Abgelehnt durch deine Immer-Regel für {rule}</translation>
    </message>
    <message>
        <source>Allowed by extension {name}</source>
        <translation>Erlaubt durch die Erweiterung {name}</translation>
    </message>
    <message>
        <source>Denied by extension {name}</source>
        <translation>Abgelehnt durch die Erweiterung {name}</translation>
    </message>
    <message>
        <source>Allowed by policy {name}</source>
        <translation>Erlaubt durch die Richtlinie {name}</translation>
    </message>
    <message>
        <source>Denied by policy {name}</source>
        <translation>Abgelehnt durch die Richtlinie {name}</translation>
    </message>
    <message>
        <source>Not run: {reason}</source>
        <translation>Nicht ausgeführt: {reason}</translation>
    </message>
    <message>
        <source>Not run: the session was closed</source>
        <translation>Nicht ausgeführt: Die Sitzung wurde geschlossen</translation>
    </message>
    <message>
        <source>The agent ran this without asking</source>
        <translation>Der Agent hat das ohne Nachfrage ausgeführt</translation>
    </message>
    <message>
        <source>Run by the agent (read-only)</source>
        <translation>Vom Agenten ausgeführt (nur lesend)</translation>
    </message>
    <message>
        <source>Run by the agent (your approval mode allows it)</source>
        <translation>Vom Agenten ausgeführt (dein Freigabemodus erlaubt es)</translation>
    </message>
    <message>
        <source>Run by the agent without asking</source>
        <translation>Vom Agenten ohne Nachfrage ausgeführt</translation>
    </message>
</context>
<context>
    <name>DiffView</name>
    <message>
        <source>Diff summary</source>
        <extracomment>Toggles unified / side-by-side while focus is inside the view (approval cards forward it). Opens the diff of the focused approval card full-window (``desktop.ui.review``). Toggles wrapping of long lines (the review view; VS Code&apos;s key for it).</extracomment>
        <translation>Zusammenfassung der Änderungen</translation>
    </message>
    <message>
        <source>Toggle side-by-side diff view</source>
        <translation>Zwischen einspaltiger und nebeneinanderliegender Ansicht wechseln</translation>
    </message>
    <message>
        <source>Diff, unified view</source>
        <translation>Änderungen, einspaltige Ansicht</translation>
    </message>
    <message>
        <source>Diff, old version</source>
        <translation>Änderungen, alte Fassung</translation>
    </message>
    <message>
        <source>Diff, new version</source>
        <translation>Änderungen, neue Fassung</translation>
    </message>
    <message>
        <source>Unified</source>
        <translation>Einspaltig</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Nebeneinander</translation>
    </message>
    <message>
        <source>unified</source>
        <translation>einspaltige</translation>
    </message>
    <message>
        <source>side-by-side</source>
        <translation>nebeneinanderliegende</translation>
    </message>
    <message>
        <source>Show the {view} diff ({key})</source>
        <translation>Die {view} Ansicht zeigen ({key})</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n Datei</numerusform>
            <numerusform>%n Dateien</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EmptyConversation</name>
    <message>
        <source>Starting the agent…</source>
        <translation>Der Agent wird gestartet…</translation>
    </message>
    <message>
        <source>Conversation (starting)</source>
        <translation>Unterhaltung (wird gestartet)</translation>
    </message>
</context>
<context>
    <name>EmptyState</name>
    <message>
        <source>send · Esc stops</source>
        <extracomment>(keys, what they do): the three a new user needs first (Shift+Enter is in the placeholder).</extracomment>
        <translation>senden · Esc hält an</translation>
    </message>
    <message>
        <source>review a waiting request</source>
        <translation>eine wartende Anfrage prüfen</translation>
    </message>
    <message>
        <source>approve or deny it</source>
        <translation>erlauben oder ablehnen</translation>
    </message>
    <message>
        <source>Asks before every edit and command</source>
        <extracomment>What each approval mode (``ApprovalMode`` value) means, said in the empty state.</extracomment>
        <translation>Fragt vor jeder Änderung und jedem Befehl</translation>
    </message>
    <message>
        <source>Approves edits by itself, asks before commands</source>
        <translation>Erlaubt Änderungen selbst, fragt vor Befehlen</translation>
    </message>
    <message>
        <source>Approves everything by itself</source>
        <translation>Erlaubt alles selbst</translation>
    </message>
    <message>
        <source>Starting the agent…</source>
        <translation>Der Agent wird gestartet…</translation>
    </message>
    <message>
        <source>Empty conversation</source>
        <translation>Leere Unterhaltung</translation>
    </message>
    <message>
        <source>{agent} is ready</source>
        <translation>{agent} ist bereit</translation>
    </message>
    <message>
        <source>Starting {agent}…</source>
        <translation>{agent} wird gestartet…</translation>
    </message>
</context>
<context>
    <name>ExitPanel</name>
    <message>
        <source>The agent exited unexpectedly (signal {0}).</source>
        <translation>Der Agent wurde unerwartet beendet (Signal {0}).</translation>
    </message>
    <message>
        <source>The agent exited unexpectedly (exit code {0}).</source>
        <translation>Der Agent wurde unerwartet beendet (Exit-Code {0}).</translation>
    </message>
    <message>
        <source>Restart agent</source>
        <translation>Agent neu starten</translation>
    </message>
    <message>
        <source>Restart the agent</source>
        <translation>Den Agenten neu starten</translation>
    </message>
    <message>
        <source>Restarted</source>
        <translation>Neu gestartet</translation>
    </message>
</context>
<context>
    <name>ExtensionsPage</name>
    <message>
        <source>Shell deny list</source>
        <extracomment>Each extension&apos;s one switch, by folder name (on: it loads after Save).</extracomment>
        <translation>Sperrliste für Shell-Befehle</translation>
    </message>
    <message>
        <source>One pattern per line: a glob (sudo *) or re:REGEX</source>
        <translation>Ein Muster pro Zeile: ein Glob (sudo *) oder re:REGEX</translation>
    </message>
    <message>
        <source>Save deny list</source>
        <translation>Sperrliste speichern</translation>
    </message>
    <message>
        <source>Shell deny list (shell_deny_list)</source>
        <translation>Sperrliste für Shell-Befehle (shell_deny_list)</translation>
    </message>
    <message>
        <source>The deny list could not be read: {exc}</source>
        <translation>Die Sperrliste konnte nicht gelesen werden: {exc}</translation>
    </message>
    <message>
        <source>Not saved: {exc}</source>
        <translation>Nicht gespeichert: {exc}</translation>
    </message>
    <message>
        <source>Saved {count} patterns; they apply at once.</source>
        <translation>{count} Muster gespeichert; sie gelten sofort.</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <source>Find in conversation</source>
        <extracomment>Typing pauses this long before the count is updated. While an answer streams, the count is updated at most this often. Frames a just-built answer may take to render before its text is searched. The index of the hit shown among ``matches`` (None: none yet).</extracomment>
        <translation>In der Unterhaltung suchen</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>Groß-/Kleinschreibung beachten</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter)</source>
        <translation>Vorheriger Treffer (Umschalt+Eingabe)</translation>
    </message>
    <message>
        <source>Next match (Enter)</source>
        <translation>Nächster Treffer (Eingabe)</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>Schließen (Esc)</translation>
    </message>
    <message>
        <source>No results</source>
        <translation>Keine Treffer</translation>
    </message>
    <message numerus="yes">
        <source>%n result(s)</source>
        <translation>
            <numerusform>%n Treffer</numerusform>
            <numerusform>%n Treffer</numerusform>
        </translation>
    </message>
    <message>
        <source>{index} of {total}</source>
        <translation>{index} von {total}</translation>
    </message>
</context>
<context>
    <name>FixBanner</name>
    <message>
        <source>Fix…</source>
        <translation>Beheben…</translation>
    </message>
    <message>
        <source>The agent</source>
        <extracomment>Causes the welcome panel fixes (a key or an agent to choose or install).</extracomment>
        <translation>Der Agent</translation>
    </message>
    <message>
        <source>{agent} needs an API key before it can start.</source>
        <translation>{agent} braucht einen API-Schlüssel, bevor er starten kann.</translation>
    </message>
    <message>
        <source>Add key…</source>
        <translation>Schlüssel hinzufügen…</translation>
    </message>
    <message>
        <source>{agent} is not installed.</source>
        <translation>{agent} ist nicht installiert.</translation>
    </message>
    <message>
        <source>Set up…</source>
        <translation>Einrichten…</translation>
    </message>
    <message>
        <source>The system keyring is locked, so the API key could not be read.</source>
        <translation>Der Schlüsselbund des Systems ist gesperrt, daher konnte der API-Schlüssel nicht gelesen werden.</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>Erneut versuchen</translation>
    </message>
    <message>
        <source>{agent} is not configured.</source>
        <translation>{agent} ist nicht eingerichtet.</translation>
    </message>
    <message>
        <source>Open Settings…</source>
        <translation>Einstellungen öffnen…</translation>
    </message>
</context>
<context>
    <name>HistoryEngine</name>
    <message>
        <source>The history is saved again; nothing of this conversation was lost.</source>
        <translation>Der Verlauf wird wieder gespeichert; nichts aus dieser Unterhaltung ging verloren.</translation>
    </message>
    <message>
        <source>Nothing shown here is lost; it is saved when that works again.</source>
        <translation>Nichts, was hier steht, geht verloren; es wird gespeichert, sobald das wieder klappt.</translation>
    </message>
    <message>
        <source>This conversation could not be saved to the history ({error}). {saved}</source>
        <translation>Diese Unterhaltung konnte nicht im Verlauf gespeichert werden ({error}). {saved}</translation>
    </message>
    <message>
        <source>New conversation</source>
        <extracomment>Turn starts and ends are followed by a list refresh this much later (one per burst).</extracomment>
        <translation>Neue Unterhaltung</translation>
    </message>
    <message>
        <source>Saved conversation (last active {when}). A new prompt continues it.</source>
        <extracomment>Each reopened conversation, whole (once its beginning is read: ``_load_earlier``).</extracomment>
        <translation>Gespeicherte Unterhaltung (zuletzt aktiv {when}). Eine neue Eingabe setzt sie fort.</translation>
    </message>
    <message>
        <source>No matches for “{query}”</source>
        <translation>Keine Treffer für „{query}“</translation>
    </message>
</context>
<context>
    <name>HistoryService</name>
    <message>
        <source>The conversation history cannot be opened: {exc}</source>
        <translation>Der Verlauf der Unterhaltungen lässt sich nicht öffnen: {exc}</translation>
    </message>
</context>
<context>
    <name>HistorySidebar</name>
    <message>
        <source>Search</source>
        <extracomment>Typing pauses this long before a search runs.</extracomment>
        <translation>Suchen</translation>
    </message>
    <message>
        <source>Search every conversation of this workspace (Ctrl+Shift+F)</source>
        <translation>Alle Unterhaltungen dieses Arbeitsbereichs durchsuchen (Strg+Umschalt+F)</translation>
    </message>
    <message>
        <source>Search conversations</source>
        <translation>Unterhaltungen durchsuchen</translation>
    </message>
    <message>
        <source>CONVERSATIONS</source>
        <translation>UNTERHALTUNGEN</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Neue Unterhaltung</translation>
    </message>
    <message>
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>Eine neue Unterhaltung beginnen (Strg+N)</translation>
    </message>
    <message>
        <source>RESULTS</source>
        <translation>ERGEBNISSE</translation>
    </message>
</context>
<context>
    <name>ImageThumbs</name>
    <message>
        <source>{0} (missing)</source>
        <translation>{0} (fehlt)</translation>
    </message>
    <message>
        <source>Image: {0}</source>
        <translation>Bild: {0}</translation>
    </message>
</context>
<context>
    <name>KeyPanel</name>
    <message>
        <source>stored in the system keyring</source>
        <extracomment>(provider, model, base URL) of the profile as currently edited (unsaved edits count).</extracomment>
        <translation>im Schlüsselbund des Systems</translation>
    </message>
    <message>
        <source>kept in memory for this run only</source>
        <translation>nur für diesen Lauf im Speicher</translation>
    </message>
    <message>
        <source>from the environment</source>
        <translation>aus der Umgebung</translation>
    </message>
    <message>
        <source>Checking the keyring…</source>
        <translation>Schlüsselbund wird geprüft…</translation>
    </message>
    <message>
        <source>Stored key</source>
        <translation>Gespeicherter Schlüssel</translation>
    </message>
    <message>
        <source>Paste a new key, then Save key</source>
        <translation>Neuen Schlüssel einfügen</translation>
    </message>
    <message>
        <source>New key</source>
        <translation>Neuer Schlüssel</translation>
    </message>
    <message>
        <source>Save key</source>
        <translation>Schlüssel speichern</translation>
    </message>
    <message>
        <source>Delete key</source>
        <translation>Schlüssel löschen</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Paste a key first.</source>
        <translation>Zuerst einen Schlüssel einfügen.</translation>
    </message>
    <message>
        <source>No key stored</source>
        <translation>Kein Schlüssel gespeichert</translation>
    </message>
    <message>
        <source>Replace key</source>
        <translation>Schlüssel ersetzen</translation>
    </message>
    <message>
        <source>Key saved ({where}).</source>
        <translation>Schlüssel gespeichert ({where}).</translation>
    </message>
    <message>
        <source>Key deleted.</source>
        <translation>Schlüssel gelöscht.</translation>
    </message>
    <message>
        <source>There was no stored key.</source>
        <translation>Es war kein Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>No key to test: paste one or save one first.</source>
        <translation>Kein Schlüssel zum Testen: Zuerst einen einfügen oder speichern.</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Wird getestet…</translation>
    </message>
</context>
<context>
    <name>Keyring</name>
    <message>
        <source>no secure keyring</source>
        <extracomment>Environment variables read when a profile of that provider type has no stored key. Modules (under ``keyring.backends``) of backends that store secrets encrypted by the OS. ``message`` for the window to translate. What people call each backend (by the module under ``keyring.backends``): product names as they are, descriptions marked for the window&apos;s translation.</extracomment>
        <translation>kein sicherer Schlüsselbund</translation>
    </message>
    <message>
        <source>no keyring</source>
        <translation>kein Schlüsselbund</translation>
    </message>
    <message>
        <source>a plain-text file keyring (keyrings.alt)</source>
        <translation>ein Schlüsselbund in einer Klartextdatei (keyrings.alt)</translation>
    </message>
    <message>
        <source>API keys are stored in the system keyring: {label}.</source>
        <translation>API-Schlüssel werden im Schlüsselbund des Systems gespeichert: {label}.</translation>
    </message>
    <message>
        <source>No secure system keyring is available (found {label}). Keys are read from ANTHROPIC_API_KEY / OPENAI_API_KEY, and keys you type are kept in memory for this run only. To store keys, run a Secret Service (e.g. gnome-keyring or KWallet) in your session.</source>
        <translation>Kein sicherer Schlüsselbund des Systems verfügbar (gefunden: {label}). Schlüssel werden aus ANTHROPIC_API_KEY / OPENAI_API_KEY gelesen, und eingegebene Schlüssel bleiben nur bis zum Beenden im Speicher. Um Schlüssel zu speichern, starte einen Secret Service (z. B. gnome-keyring oder KWallet) in deiner Sitzung.</translation>
    </message>
    <message>
        <source>The keyring failed while {what}: {error}</source>
        <translation>Fehler im Schlüsselbund beim {what}: {error}</translation>
    </message>
    <message>
        <source>The keyring did not answer within {seconds} s while {what}; it may be locked and waiting for an unlock prompt.</source>
        <translation>Der Schlüsselbund hat beim {what} nicht innerhalb von {seconds} s geantwortet; vielleicht ist er gesperrt und wartet auf die Entsperrabfrage.</translation>
    </message>
    <message>
        <source>The keyring is locked and the unlock prompt was dismissed while {what}.</source>
        <translation>Der Schlüsselbund ist gesperrt, und die Entsperrabfrage wurde beim {what} abgebrochen.</translation>
    </message>
    <message>
        <source>reading a key</source>
        <translation>Lesen eines Schlüssels</translation>
    </message>
    <message>
        <source>saving a key</source>
        <translation>Speichern eines Schlüssels</translation>
    </message>
    <message>
        <source>deleting a key</source>
        <translation>Löschen eines Schlüssels</translation>
    </message>
</context>
<context>
    <name>Markdown</name>
    <message>
        <source>Copy</source>
        <extracomment>The scheme of the links a code block&apos;s &quot;Copy&quot; is (the view copies that block, never opens it). The key, in the ``codes`` of an answer, of the code block cut at the end of the last block rendered: the pieces that continue it are added to its code (one &quot;Copy&quot; for the whole). Pygments styles (token colours only; each is made readable on the palette&apos;s code background). Contrast every syntax colour reaches on the code background (WCAG AA is 4.5). One type scale: heading sizes relative to the body text (Qt&apos;s size keywords follow zoom). Lexers built so far, by language name (None: no lexer has that name).</extracomment>
        <translation>Kopieren</translation>
    </message>
</context>
<context>
    <name>Mcp</name>
    <message>
        <source>This agent cannot use HTTP MCP servers; not available here: {names}.</source>
        <translation>Dieser Agent kann keine HTTP-MCP-Server verwenden; hier nicht verfügbar: {names}.</translation>
    </message>
    <message>
        <source>MCP servers passed to the agent: {names}.</source>
        <translation>An den Agenten übergebene MCP-Server: {names}.</translation>
    </message>
    <message>
        <source>This agent cannot use MCP servers; not available here: {names}.</source>
        <extracomment>Where an agent names the server of an MCP failure in its message (real aionrs, the built-in). The extra field the built-in agent puts on its MCP errors and notices.</extracomment>
        <translation>Dieser Agent kann keine MCP-Server verwenden; hier nicht verfügbar: {names}.</translation>
    </message>
    <message>
        <source>Starting MCP servers: {names}.</source>
        <translation>MCP-Server werden gestartet: {names}.</translation>
    </message>
    <message>
        <source>MCP servers passed to Codex: {names}.</source>
        <extracomment>Seconds ``model/list`` may take before the picker offers only the thread&apos;s model. The configured MCP servers of the workspace (``-c mcp_servers.*`` at spawn). The thread&apos;s model, and the one the user chose (sent with each turn).</extracomment>
        <translation>An Codex übergebene MCP-Server: {names}.</translation>
    </message>
    <message>
        <source>MCP server {name} is ready ({n} tools).</source>
        <translation>Der MCP-Server {name} ist bereit ({n} Werkzeuge).</translation>
    </message>
</context>
<context>
    <name>McpSettings</name>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>Geheim</translation>
    </message>
    <message>
        <source>Kept in the system keyring, never in the MCP server file</source>
        <translation>Im Schlüsselbund des Systems gespeichert, nie in der MCP-Server-Datei</translation>
    </message>
    <message>
        <source>Remove this row</source>
        <translation>Diese Zeile entfernen</translation>
    </message>
    <message>
        <source>In the keyring</source>
        <translation>Im Schlüsselbund</translation>
    </message>
    <message>
        <source>Stored in the keyring; type to replace</source>
        <translation>Im Schlüsselbund gespeichert; zum Ersetzen tippen</translation>
    </message>
    <message>
        <source>Secret value (goes to the keyring)</source>
        <translation>Geheimer Wert (kommt in den Schlüsselbund)</translation>
    </message>
    <message>
        <source>Name</source>
        <extracomment>Where a server applies, as the scope choice&apos;s data (not words: the labels are translated).</extracomment>
        <translation>Name</translation>
    </message>
    <message>
        <source>Letters, digits and dashes</source>
        <translation>Buchstaben, Ziffern und Bindestriche</translation>
    </message>
    <message>
        <source>Local program (stdio)</source>
        <translation>Lokales Programm (stdio)</translation>
    </message>
    <message>
        <source>HTTP server</source>
        <translation>HTTP-Server</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Program, e.g. npx or /usr/bin/my-server</source>
        <translation>Programm, z. B. npx oder /usr/bin/mein-server</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Arguments, as on a command line</source>
        <translation>Argumente, wie auf einer Befehlszeile</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>Variable</source>
        <translation>Variable</translation>
    </message>
    <message>
        <source>Add variable</source>
        <translation>Variable hinzufügen</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>Add header</source>
        <translation>Header hinzufügen</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Testen</translation>
    </message>
    <message>
        <source>Start the server as typed here and list its tools</source>
        <translation>Den Server wie hier eingegeben starten und seine Werkzeuge auflisten</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>All workspaces</source>
        <translation>Alle Arbeitsbereiche</translation>
    </message>
    <message>
        <source>This workspace ({0})</source>
        <translation>Dieser Arbeitsbereich ({0})</translation>
    </message>
    <message>
        <source>These workspaces: {0}</source>
        <translation>Diese Arbeitsbereiche: {0}</translation>
    </message>
    <message>
        <source>Cannot test: {0}</source>
        <translation>Test nicht möglich: {0}</translation>
    </message>
    <message>
        <source>Starting {0}…</source>
        <translation>{0} wird gestartet …</translation>
    </message>
    <message>
        <source>Working: {0} tools.</source>
        <translation>Funktioniert: {0} Werkzeuge.</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <extracomment>The list&apos;s switches drawn like the dialog&apos;s check boxes (its style sheet has none for them). The keyring writes of the last save (they run in the background).</extracomment>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add an MCP server</source>
        <translation>Einen MCP-Server hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove the selected MCP server</source>
        <translation>Den gewählten MCP-Server entfernen</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>Server</translation>
    </message>
    <message>
        <source>No MCP servers yet. Add one: its tools go to every agent that takes them.</source>
        <translation>Noch keine MCP-Server. Füge einen hinzu: Seine Werkzeuge gehen an jeden Agenten, der sie nutzen kann.</translation>
    </message>
    <message>
        <source>all workspaces</source>
        <translation>alle Arbeitsbereiche</translation>
    </message>
    <message>
        <source>this workspace</source>
        <translation>dieser Arbeitsbereich</translation>
    </message>
    <message>
        <source>{0} workspaces</source>
        <translation>{0} Arbeitsbereiche</translation>
    </message>
    <message>
        <source>Checked: enabled</source>
        <translation>Angehakt: aktiviert</translation>
    </message>
    <message>
        <source>MCP server {0}: {1}</source>
        <translation>MCP-Server {0}: {1}</translation>
    </message>
    <message>
        <source>MCP servers saved to {0}</source>
        <translation>MCP-Server gespeichert in {0}</translation>
    </message>
    <message>
        <source>MCP servers saved, but a secret was not: {0}</source>
        <translation>MCP-Server gespeichert, ein Geheimnis aber nicht: {0}</translation>
    </message>
    <message>
        <source>MCP servers saved to {0}; {1} secret(s) stored in the keyring.</source>
        <translation>MCP-Server gespeichert in {0}; {1} Geheimnis(se) im Schlüsselbund abgelegt.</translation>
    </message>
</context>
<context>
    <name>McpStatus</name>
    <message>
        <source>starting…</source>
        <extracomment>``McpServerState`` values in words (a test keeps the keys equal to the enum&apos;s values).</extracomment>
        <translation>startet …</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>verbunden</translation>
    </message>
    <message>
        <source>passed to the agent</source>
        <translation>an den Agenten übergeben</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>stopped working</source>
        <translation>funktioniert nicht mehr</translation>
    </message>
    <message>
        <source>{0} connected</source>
        <translation>{0} verbunden</translation>
    </message>
    <message>
        <source>{0} passed</source>
        <translation>{0} übergeben</translation>
    </message>
    <message>
        <source>{0} starting</source>
        <translation>{0} startet</translation>
    </message>
    <message>
        <source>{0} failed</source>
        <translation>{0} fehlgeschlagen</translation>
    </message>
    <message>
        <source>MCP: {0}</source>
        <translation>MCP: {0}</translation>
    </message>
    <message>
        <source>MCP servers of this conversation</source>
        <translation>MCP-Server dieser Unterhaltung</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Tools: {0}</source>
        <translation>Werkzeuge: {0}</translation>
    </message>
    <message>
        <source>MCP servers of this conversation: click for details</source>
        <translation>MCP-Server dieser Unterhaltung: für Details klicken</translation>
    </message>
</context>
<context>
    <name>Menus</name>
    <message>
        <source>&amp;Light</source>
        <extracomment>Edit actions: slots of the focused text field (QLineEdit, QPlainTextEdit, QTextEdit). View ▸ Theme&apos;s actions (named ``theme`` + ``core.settings.Theme`` value, titled) and texts.</extracomment>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>&amp;Dunkel</translation>
    </message>
    <message>
        <source>Follow the &amp;System</source>
        <translation>Wie das &amp;System</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation>&amp;Unterhaltung</translation>
    </message>
    <message>
        <source>&amp;Window</source>
        <translation>&amp;Fenster</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts…</source>
        <translation>&amp;Tastenkürzel…</translation>
    </message>
    <message>
        <source>&amp;About Agent Desk</source>
        <translation>Ü&amp;ber Agent Desk</translation>
    </message>
    <message>
        <source>&amp;New Conversation</source>
        <translation>&amp;Neue Unterhaltung</translation>
    </message>
    <message>
        <source>&amp;Open Workspace…</source>
        <translation>Arbeitsbereich ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Close Window</source>
        <translation>Fenster &amp;schließen</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>&amp;Ausschneiden</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Kopieren</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>&amp;Einfügen</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>A&amp;lles auswählen</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>Ei&amp;nstellungen…</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Actual Size</source>
        <translation>&amp;Originalgröße</translation>
    </message>
    <message>
        <source>&amp;Sidebar</source>
        <translation>&amp;Seitenleiste</translation>
    </message>
    <message>
        <source>Review &amp;Conversation Changes</source>
        <translation>Änderungen des &amp;Gesprächs prüfen</translation>
    </message>
    <message>
        <source>No changes recorded in this conversation</source>
        <translation>In diesem Gespräch sind keine Änderungen aufgezeichnet</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Design</translation>
    </message>
    <message>
        <source>Nothing to review: no change is waiting for approval</source>
        <translation>Nichts zu prüfen: Keine Änderung wartet auf Freigabe</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Anhalten</translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation>&amp;Umbenennen</translation>
    </message>
    <message>
        <source>Export as &amp;Markdown…</source>
        <translation>Als &amp;Markdown exportieren…</translation>
    </message>
    <message>
        <source>Export as &amp;JSON…</source>
        <translation>Als &amp;JSON exportieren…</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>&amp;Undo Delete</source>
        <translation>Löschen &amp;rückgängig machen</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Check for &amp;Updates…</source>
        <translation>Nach &amp;Updates suchen…</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>&amp;Suchen…</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>&amp;Weitersuchen</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>&amp;Rückwärts suchen</translation>
    </message>
    <message>
        <source>Find in &amp;Conversations…</source>
        <translation>In &amp;Unterhaltungen suchen…</translation>
    </message>
</context>
<context>
    <name>ModeButton</name>
    <message>
        <source>Approval mode and always-rules of this conversation</source>
        <translation>Freigabemodus und Immer-Regeln dieser Unterhaltung</translation>
    </message>
    <message>
        <source>Approval mode: {0}</source>
        <translation>Freigabemodus: {0}</translation>
    </message>
</context>
<context>
    <name>ModelPicker</name>
    <message>
        <source>Model</source>
        <extracomment>What the button is about, by ``ChoiceKind`` value.</extracomment>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Agent mode</source>
        <translation>Agentenmodus</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Auswählen…</translation>
    </message>
    <message>
        <source>{what} of this conversation: click to switch</source>
        <translation>{what} dieser Unterhaltung: zum Wechseln klicken</translation>
    </message>
    <message>
        <source>{what} of this conversation (the agent offers no other)</source>
        <translation>{what} dieser Unterhaltung (der Agent bietet kein anderes an)</translation>
    </message>
</context>
<context>
    <name>PaneChanges</name>
    <message>
        <source>Turn {turn} · 1 file · +{added} −{removed}</source>
        <extracomment>The turn reviewed; None: the whole conversation (files revert to before its start).</extracomment>
        <translation>Durchgang {turn} · 1 Datei · +{added} −{removed}</translation>
    </message>
    <message>
        <source>Turn {turn} · {n} files · +{added} −{removed}</source>
        <translation>Durchgang {turn} · {n} Dateien · +{added} −{removed}</translation>
    </message>
    <message>
        <source>This conversation · 1 file · +{added} −{removed}</source>
        <translation>Dieses Gespräch · 1 Datei · +{added} −{removed}</translation>
    </message>
    <message>
        <source>This conversation · {n} files · +{added} −{removed}</source>
        <translation>Dieses Gespräch · {n} Dateien · +{added} −{removed}</translation>
    </message>
    <message>
        <source>Stop the running turn first, then revert.</source>
        <translation>Halte zuerst den laufenden Durchgang an und mache dann die Änderung rückgängig.</translation>
    </message>
    <message>
        <source>Reverted hunk {hunk} of {path}</source>
        <translation>Abschnitt {hunk} von {path} zurückgenommen</translation>
    </message>
    <message>
        <source>Reverted {path}</source>
        <translation>{path} zurückgenommen</translation>
    </message>
    <message>
        <source>Revert undone</source>
        <translation>Zurücknahme rückgängig gemacht</translation>
    </message>
    <message>
        <source>Stop the running turn first, then restore.</source>
        <translation>Halte zuerst den laufenden Durchgang an und setze dann zurück.</translation>
    </message>
    <message>
        <source>Working out what will change…</source>
        <translation>Ermittle, was sich ändern wird …</translation>
    </message>
    <message>
        <source>Restoring…</source>
        <translation>Setze zurück …</translation>
    </message>
    <message>
        <source>Undoing the restore…</source>
        <translation>Mache das Zurücksetzen rückgängig …</translation>
    </message>
</context>
<context>
    <name>PlanView</name>
    <message>
        <source>Plan · {done} of {total} done</source>
        <extracomment>The mark of each status (drawn in the status&apos;s colour by the style sheet). Steps listed; the rest are summed up in one line (&quot;and 3 more steps&quot;).</extracomment>
        <translation>Plan · {done} von {total} erledigt</translation>
    </message>
    <message>
        <source>and {n} more steps</source>
        <translation>und {n} weitere Schritte</translation>
    </message>
    <message>
        <source>done</source>
        <translation>erledigt</translation>
    </message>
    <message>
        <source>in progress</source>
        <translation>in Arbeit</translation>
    </message>
    <message>
        <source>to do</source>
        <translation>offen</translation>
    </message>
    <message>
        <source>Plan: {done} of {total} steps done</source>
        <translation>Plan: {done} von {total} Schritten erledigt</translation>
    </message>
    <message>
        <source>Show or hide the agent&apos;s plan</source>
        <translation>Den Plan des Agenten zeigen oder ausblenden</translation>
    </message>
</context>
<context>
    <name>PreviewBody</name>
    <message>
        <source>Warning: outside the workspace</source>
        <extracomment>Rows of a diff shown inside a card before it scrolls. Rows of a command or JSON body shown before it scrolls.</extracomment>
        <translation>Warnung: außerhalb des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>⚠ Runs outside the workspace</source>
        <translation>⚠ Läuft außerhalb des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>⚠ Outside the workspace</source>
        <translation>⚠ Außerhalb des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>Befehlszeile</translation>
    </message>
    <message>
        <source>Creates an empty file.</source>
        <translation>Legt eine leere Datei an.</translation>
    </message>
    <message>
        <source>Tool arguments</source>
        <translation>Argumente des Werkzeugs</translation>
    </message>
    <message>
        <source>Show the tool&apos;s arguments</source>
        <translation>Die Argumente des Werkzeugs zeigen</translation>
    </message>
    <message>
        <source>Arguments ▸</source>
        <translation>Argumente ▸</translation>
    </message>
    <message>
        <source>Arguments ▾</source>
        <translation>Argumente ▾</translation>
    </message>
</context>
<context>
    <name>PricesBox</name>
    <message>
        <source>Usage and cost</source>
        <translation>Verbrauch und Kosten</translation>
    </message>
    <message>
        <source>Costs in the status bar, below each turn and in agentdesk history list are estimates from a price table (US dollars per million tokens). Add or change models in your own copy; a model it does not know has no estimate.</source>
        <translation>Die Kosten in der Statusleiste, unter jedem Durchgang und in agentdesk history list sind Schätzungen aus einer Preistabelle (US-Dollar je Million Tokens). Ergänzen oder ändern Sie Modelle in Ihrer eigenen Kopie; für ein Modell, das sie nicht kennt, gibt es keine Schätzung.</translation>
    </message>
    <message>
        <source>Edit prices…</source>
        <translation>Preise bearbeiten…</translation>
    </message>
    <message>
        <source>Open your price table in the desktop&apos;s editor</source>
        <translation>Ihre Preistabelle im Editor des Desktops öffnen</translation>
    </message>
    <message>
        <source>Could not write the price table: {error}</source>
        <translation>Die Preistabelle konnte nicht geschrieben werden: {error}</translation>
    </message>
</context>
<context>
    <name>PromptEdit</name>
    <message>
        <source>Ask the agent…  (Enter to send, Shift+Enter for a new line)</source>
        <extracomment>Seconds after the last key typed into the composer during which it is &quot;in use&quot;: a new approval request does not take keyboard focus from it (see ``PromptEdit.in_use``).</extracomment>
        <translation>Den Agenten fragen…  (Enter sendet, Umschalt+Enter für eine neue Zeile)</translation>
    </message>
    <message>
        <source>Enter sends, Shift+Enter starts a new line, Esc stops the agent</source>
        <translation>Enter sendet, Umschalt+Enter beginnt eine neue Zeile, Esc hält den Agenten an</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Eingabe</translation>
    </message>
</context>
<context>
    <name>Replay</name>
    <message>
        <source>This reply was cut off.</source>
        <extracomment>Stored items a reopened conversation reads first (well over a screen); the rest follow. Time one slice of the rest may take (parsed, keyed and given rows), a slice a turn of the loop.</extracomment>
        <translation>Diese Antwort wurde abgeschnitten.</translation>
    </message>
</context>
<context>
    <name>RestoreBar</name>
    <message>
        <source>comes back</source>
        <extracomment>Files the plan lists before &quot;and N more&quot; (the review shows them all).</extracomment>
        <translation>kommt zurück</translation>
    </message>
    <message>
        <source>is removed</source>
        <translation>wird entfernt</translation>
    </message>
    <message>
        <source>permissions change</source>
        <translation>Berechtigungen ändern sich</translation>
    </message>
    <message>
        <source>changes back</source>
        <translation>wird zurückgeändert</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Undo restore</source>
        <translation>Zurücksetzen rückgängig machen</translation>
    </message>
    <message>
        <source>Undo the restore: put the files back as they were</source>
        <translation>Das Zurücksetzen rückgängig machen: die Dateien wieder so herstellen, wie sie waren</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Restore the files to before turn {turn}?</source>
        <translation>Die Dateien auf den Stand vor Durchgang {turn} zurücksetzen?</translation>
    </message>
    <message>
        <source>1 file will change:</source>
        <translation>1 Datei wird sich ändern:</translation>
    </message>
    <message>
        <source>{n} files will change:</source>
        <translation>{n} Dateien werden sich ändern:</translation>
    </message>
    <message>
        <source>and {n} more</source>
        <translation>und {n} weitere</translation>
    </message>
    <message>
        <source>1 file was edited after this turn: restoring drops those edits too.</source>
        <translation>1 Datei wurde nach diesem Durchgang bearbeitet: Das Zurücksetzen verwirft auch diese Änderungen.</translation>
    </message>
    <message>
        <source>{n} files were edited after this turn: restoring drops those edits too.</source>
        <translation>{n} Dateien wurden nach diesem Durchgang bearbeitet: Das Zurücksetzen verwirft auch diese Änderungen.</translation>
    </message>
    <message>
        <source>Restore undone: 1 file put back.</source>
        <translation>Zurücksetzen rückgängig gemacht: 1 Datei wiederhergestellt.</translation>
    </message>
    <message>
        <source>Restore undone: {n} files put back.</source>
        <translation>Zurücksetzen rückgängig gemacht: {n} Dateien wiederhergestellt.</translation>
    </message>
    <message>
        <source>Restored 1 file.</source>
        <translation>1 Datei zurückgesetzt.</translation>
    </message>
    <message>
        <source>Restored {n} files.</source>
        <translation>{n} Dateien zurückgesetzt.</translation>
    </message>
    <message>
        <source>1 file could not be written:</source>
        <translation>1 Datei konnte nicht geschrieben werden:</translation>
    </message>
    <message>
        <source>{n} files could not be written:</source>
        <translation>{n} Dateien konnten nicht geschrieben werden:</translation>
    </message>
    <message>
        <source>No file differs: nothing will change.</source>
        <translation>Keine Datei weicht ab: nichts wird sich ändern.</translation>
    </message>
    <message>
        <source>edited after this turn</source>
        <translation>nach diesem Durchgang bearbeitet</translation>
    </message>
    <message>
        <source>The files as they are now are saved first: you can undo this.</source>
        <translation>Die Dateien werden zuerst im jetzigen Stand gesichert: Du kannst das rückgängig machen.</translation>
    </message>
    <message>
        <source>The workspace is only partly restored; Undo restore puts it back as it was.</source>
        <translation>Der Arbeitsordner ist nur teilweise zurückgesetzt; „Zurücksetzen rückgängig machen“ stellt ihn wieder her, wie er war.</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>Resume</name>
    <message>
        <source>The agent got a summary of this conversation to continue from.</source>
        <extracomment>Starts a conversation&apos;s session in place of ``Session.start`` (a continued conversation).</extracomment>
        <translation>Der Agent hat eine Zusammenfassung dieser Unterhaltung erhalten, um daran anzuknüpfen.</translation>
    </message>
    <message>
        <source>{name} could not load session {session}: {error}; a new session was started.</source>
        <extracomment>The configured MCP servers of the workspace (resolved at ``session/new``/``load``). ACP names calls by their title; the category comes from the call&apos;s ``kind`` (unknown kinds are exec: asked about), which the agent program sets, not the model.</extracomment>
        <translation>{name} konnte die Sitzung {session} nicht laden: {error}; eine neue Sitzung wurde begonnen.</translation>
    </message>
    <message>
        <source>Codex could not resume thread {thread}: {error}; a new thread was started.</source>
        <translation>Codex konnte den Thread {thread} nicht fortsetzen: {error}; ein neuer Thread wurde begonnen.</translation>
    </message>
</context>
<context>
    <name>RevertBar</name>
    <message>
        <source>Where you are</source>
        <extracomment>Each button&apos;s label with its keys and without (a narrow review drops the keys).</extracomment>
        <translation>Wo du bist</translation>
    </message>
    <message>
        <source>Last revert</source>
        <translation>Letzte Zurücknahme</translation>
    </message>
    <message>
        <source>Revert hunk</source>
        <translation>Abschnitt zurücknehmen</translation>
    </message>
    <message>
        <source>Revert file</source>
        <translation>Datei zurücknehmen</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <translation>Tastenkürzel: {keys}</translation>
    </message>
    <message>
        <source>Put the hunk under review back ({key})</source>
        <translation>Den geprüften Abschnitt zurücknehmen ({key})</translation>
    </message>
    <message>
        <source>Put the whole file back ({key})</source>
        <translation>Die ganze Datei zurücknehmen ({key})</translation>
    </message>
    <message>
        <source>Undo the last revert ({key})</source>
        <translation>Die letzte Zurücknahme rückgängig machen ({key})</translation>
    </message>
    <message>
        <source>File {file} of {files}</source>
        <translation>Datei {file} von {files}</translation>
    </message>
    <message>
        <source>hunk {hunk} of {hunks}</source>
        <translation>Abschnitt {hunk} von {hunks}</translation>
    </message>
</context>
<context>
    <name>ReviewController</name>
    <message>
        <source>Decided</source>
        <extracomment>Answers Revert and Undo while a change set is under review (``open_changes``). Opens the review of a conversation&apos;s changes (set by the checkpoints plug-in).</extracomment>
        <translation>Entschieden</translation>
    </message>
</context>
<context>
    <name>ReviewFiles</name>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>binary</source>
        <translation>binär</translation>
    </message>
    <message>
        <source>Changed files</source>
        <translation>Geänderte Dateien</translation>
    </message>
</context>
<context>
    <name>ReviewHook</name>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Review the change full-window</source>
        <translation>Die Änderung im ganzen Fenster prüfen</translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <translation>Tastenkürzel: {keys}</translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message>
        <source>Review changes</source>
        <extracomment>Keys of the review&apos;s own commands (the decision keys are the card&apos;s). A review narrower than this hides its file list and gives the diff the width (its file headers still name every file): the list&apos;s 220 px beside a diff of at least 420 px. Decision keys, as on the card: (keys, Decision value or &quot;reason&quot;).</extracomment>
        <translation>Änderungen prüfen</translation>
    </message>
    <message>
        <source>← Conversation</source>
        <translation>← Unterhaltung</translation>
    </message>
    <message>
        <source>Back to the conversation (Esc)</source>
        <translation>Zurück zur Unterhaltung (Esc)</translation>
    </message>
    <message>
        <source>Back to the conversation</source>
        <translation>Zurück zur Unterhaltung</translation>
    </message>
    <message>
        <source>What is reviewed</source>
        <translation>Was geprüft wird</translation>
    </message>
    <message>
        <source>Unified</source>
        <translation>Einspaltig</translation>
    </message>
    <message>
        <source>Side by side</source>
        <translation>Nebeneinander</translation>
    </message>
    <message>
        <source>Unified or side by side ({key})</source>
        <translation>Einspaltig oder nebeneinander ({key})</translation>
    </message>
    <message>
        <source>Wrap</source>
        <translation>Umbrechen</translation>
    </message>
    <message>
        <source>Wrap long lines ({key})</source>
        <translation>Lange Zeilen umbrechen ({key})</translation>
    </message>
    <message>
        <source>Previous change (Alt+↑)</source>
        <translation>Vorige Änderung (Alt+↑)</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>Vorige Änderung</translation>
    </message>
    <message>
        <source>Next change (Alt+↓)</source>
        <translation>Nächste Änderung (Alt+↓)</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <source>Current change</source>
        <translation>Aktuelle Änderung</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>Wartet auf deine Freigabe</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>Always</source>
        <translation>Immer</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Reason…</source>
        <translation>Grund…</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nie</translation>
    </message>
    <message>
        <source>Shortcut: {keys}</source>
        <extracomment>Revert and undo for a turn&apos;s (or conversation&apos;s) changes (``show_changes``).</extracomment>
        <translation>Tastenkürzel: {keys}</translation>
    </message>
    <message>
        <source>No changes</source>
        <translation>Keine Änderungen</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s)</source>
        <translation>
            <numerusform>%n Änderung</numerusform>
            <numerusform>%n Änderungen</numerusform>
        </translation>
    </message>
    <message>
        <source>{index} of {total}</source>
        <translation>{index} von {total}</translation>
    </message>
</context>
<context>
    <name>RuleRow</name>
    <message>
        <source>since {time}</source>
        <translation>seit {time}</translation>
    </message>
    <message>
        <source>Denied: {label}</source>
        <translation>Abgelehnt: {label}</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Revoke the {kind} for {label}</source>
        <translation>{kind} für {label} widerrufen</translation>
    </message>
    <message>
        <source>Ask again for the next request like this (a pending one stays)</source>
        <translation>Bei der nächsten solchen Anfrage wieder fragen (eine offene bleibt)</translation>
    </message>
    <message>
        <source>Always {verdict}: {label}, {spoken}</source>
        <translation>Immer {verdict}: {label}, {spoken}</translation>
    </message>
</context>
<context>
    <name>RulesPanel</name>
    <message>
        <source>Every tool call waits for you.</source>
        <extracomment>What each mode means, under its name.</extracomment>
        <translation>Jeder Werkzeugaufruf wartet auf dich.</translation>
    </message>
    <message>
        <source>Reading and editing files run without asking.</source>
        <translation>Dateien lesen und ändern läuft ohne Nachfrage.</translation>
    </message>
    <message>
        <source>Every tool call runs without asking.</source>
        <translation>Jeder Werkzeugaufruf läuft ohne Nachfrage.</translation>
    </message>
    <message>
        <source>No always-rules yet — press A on a request to add one.</source>
        <translation>Noch keine Immer-Regeln — A bei einer Anfrage fügt eine hinzu.</translation>
    </message>
    <message>
        <source>Approval mode and always-rules</source>
        <translation>Freigabemodus und Immer-Regeln</translation>
    </message>
    <message>
        <source>Approval mode</source>
        <translation>Freigabemodus</translation>
    </message>
    <message>
        <source>Always-rules in this conversation</source>
        <translation>Immer-Regeln dieser Unterhaltung</translation>
    </message>
    <message>
        <source>Revoke all</source>
        <translation>Alle widerrufen</translation>
    </message>
    <message>
        <source>Revoke all always-rules</source>
        <translation>Alle Immer-Regeln widerrufen</translation>
    </message>
</context>
<context>
    <name>Runtime</name>
    <message>
        <source>Connecting to the runtime at {address}…</source>
        <extracomment>After ``done`` the runtime ends the stream at once; wait this long for it before cancelling. Say &quot;connecting…&quot; when the runtime has not answered within this many seconds.</extracomment>
        <translation>Verbindung zur Laufzeit unter {address} wird aufgebaut…</translation>
    </message>
    <message>
        <source>Attached files stay on this computer; the remote runtime gets the text only.</source>
        <translation>Angehängte Dateien bleiben auf diesem Computer; die entfernte Laufzeit erhält nur den Text.</translation>
    </message>
</context>
<context>
    <name>SearchResults</name>
    <message>
        <source>Search results</source>
        <translation>Suchergebnisse</translation>
    </message>
</context>
<context>
    <name>Session</name>
    <message>
        <source>The agent could not start: {reason}</source>
        <translation>Der Agent konnte nicht starten: {reason}</translation>
    </message>
    <message>
        <source>The agent did not confirm the stop in time; it was ended.</source>
        <translation>Der Agent hat das Anhalten nicht rechtzeitig bestätigt und wurde beendet.</translation>
    </message>
    <message>
        <source>exit code {code}</source>
        <translation>Exit-Code {code}</translation>
    </message>
    <message>
        <source>signal {signal}</source>
        <translation>Signal {signal}</translation>
    </message>
    <message>
        <source>The agent exited during the turn ({what}).</source>
        <translation>Der Agent wurde während des Durchgangs beendet ({what}).</translation>
    </message>
    <message>
        <source>The agent stopped unexpectedly; the next prompt restarts it.</source>
        <translation>Der Agent wurde unerwartet beendet; die nächste Eingabe startet ihn neu.</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>Running</source>
        <extracomment>What each runtime state reads as on a row&apos;s badge.</extracomment>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Needs trust</source>
        <translation>Braucht Vertrauen</translation>
    </message>
    <message>
        <source>Reload extensions</source>
        <translation>Erweiterungen neu laden</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen…</translation>
    </message>
    <message>
        <source>Extensions found</source>
        <translation>Gefundene Erweiterungen</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Ein</translation>
    </message>
    <message>
        <source>{0}: on</source>
        <translation>{0}: ein</translation>
    </message>
    <message>
        <source>On or off (applies when you Save)</source>
        <translation>Ein oder aus (gilt nach dem Speichern)</translation>
    </message>
    <message>
        <source>no events</source>
        <translation>keine Ereignisse</translation>
    </message>
    <message>
        <source>Review and trust…</source>
        <translation>Prüfen und vertrauen…</translation>
    </message>
    <message>
        <source>{0} {1} · from this workspace</source>
        <translation>{0} {1} · aus diesem Arbeitsbereich</translation>
    </message>
    <message>
        <source>{0} running · {1} waiting for trust · switches apply when you Save</source>
        <translation>{0} laufen · {1} warten auf Vertrauen · Schalter gelten nach dem Speichern</translation>
    </message>
    <message>
        <source>built in</source>
        <translation>eingebaut</translation>
    </message>
    <message>
        <source>your extensions folder</source>
        <translation>dein Erweiterungsordner</translation>
    </message>
    <message>
        <source>this workspace</source>
        <translation>dieser Arbeitsbereich</translation>
    </message>
    <message>
        <source>The APIs the built-in agent talks to, and their keys.</source>
        <extracomment>The line under each page&apos;s title.</extracomment>
        <translation>Die APIs, mit denen der eingebaute Agent spricht, und ihre Schlüssel.</translation>
    </message>
    <message>
        <source>The agents new conversations can use.</source>
        <translation>Die Agenten, die neue Unterhaltungen nutzen können.</translation>
    </message>
    <message>
        <source>New conversations, approvals and the look of the window.</source>
        <translation>Neue Unterhaltungen, Freigaben und das Aussehen des Fensters.</translation>
    </message>
    <message>
        <source>What extensions do, and which of them are on.</source>
        <translation>Was Erweiterungen tun und welche eingeschaltet sind.</translation>
    </message>
    <message>
        <source>Schema version</source>
        <translation>Schemaversion</translation>
    </message>
    <message>
        <source>Providers</source>
        <extracomment>The page names, for the catalogue (the pages are keyed by their English names).</extracomment>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>A named provider configuration; its API key lives in the OS keyring under ``name``.</source>
        <translation>Eine benannte Anbieter-Konfiguration; ihr API-Schlüssel liegt im Schlüsselbund des Systems unter ``name``.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Identifier; also the keyring entry of the key.</source>
        <translation>Bezeichner; auch der Eintrag des Schlüssels im Schlüsselbund.</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>Anbieter</translation>
    </message>
    <message>
        <source>Which API the profile talks to.</source>
        <translation>Mit welcher API das Profil spricht.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Model id sent to the API.</source>
        <translation>Modell-ID, die an die API geht.</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>API endpoint; empty for the provider&apos;s default.</source>
        <translation>API-Endpunkt; leer für den Standard des Anbieters.</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Höchstzahl Tokens</translation>
    </message>
    <message>
        <source>Upper bound on tokens per reply; empty for the agent&apos;s default.</source>
        <translation>Obergrenze der Tokens pro Antwort; leer für den Standard des Agenten.</translation>
    </message>
    <message>
        <source>Agents</source>
        <translation>Agenten</translation>
    </message>
    <message>
        <source>Agent Desk&apos;s own agent, driven by a provider profile.</source>
        <translation>Der eigene Agent von Agent Desk, betrieben mit einem Anbieterprofil.</translation>
    </message>
    <message>
        <source>Shown in the agent picker; used by --agent.</source>
        <translation>In der Agentenauswahl gezeigt; für --agent verwendet.</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Provider profile the agent uses.</source>
        <translation>Anbieterprofil, das der Agent nutzt.</translation>
    </message>
    <message>
        <source>The aionrs binary (found on PATH unless ``command`` is a path); it keeps its own config.</source>
        <translation>Das aionrs-Programm (im PATH gesucht, außer ``command`` ist ein Pfad); es hat seine eigene Konfiguration.</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Programm</translation>
    </message>
    <message>
        <source>aionrs program or path.</source>
        <translation>aionrs-Programm oder Pfad.</translation>
    </message>
    <message>
        <source>Extra arguments</source>
        <translation>Zusätzliche Argumente</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Umgebung</translation>
    </message>
    <message>
        <source>Extra, non-secret variables.</source>
        <translation>Zusätzliche, nicht geheime Variablen.</translation>
    </message>
    <message>
        <source>Any program that speaks a supported protocol over stdio.</source>
        <translation>Jedes Programm, das ein unterstütztes Protokoll über stdio spricht.</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Program and arguments.</source>
        <translation>Programm und Argumente.</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>Protokoll</translation>
    </message>
    <message>
        <source>Keys in environment</source>
        <translation>Schlüssel in der Umgebung</translation>
    </message>
    <message>
        <source>Variable name → provider profile whose stored key is put there.</source>
        <translation>Variablenname → Anbieterprofil, dessen gespeicherter Schlüssel dort eingesetzt wird.</translation>
    </message>
    <message>
        <source>Resume flag</source>
        <translation>Option zum Fortsetzen</translation>
    </message>
    <message>
        <source>e.g. --resume, if the agent has sessions.</source>
        <translation>z. B. --resume, wenn der Agent Sitzungen kennt.</translation>
    </message>
    <message>
        <source>An Agent Runtime reached over gRPC; its signing key is in the keyring under ``name``.</source>
        <translation>Eine Agent-Laufzeit, erreicht über gRPC; ihr Signaturschlüssel liegt im Schlüsselbund unter ``name``.</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Connection settings of the runtime.</source>
        <translation>Verbindungseinstellungen der Laufzeit.</translation>
    </message>
    <message>
        <source>A remote Agent Runtime as stored in Settings (the ``remote`` agent kind).</source>
        <translation>Eine entfernte Agent-Laufzeit, wie in den Einstellungen gespeichert (die Agentenart ``remote``).</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>HOST:PORT of the runtime (port 42618 by default).</source>
        <translation>HOST:PORT der Laufzeit (standardmäßig Port 42618).</translation>
    </message>
    <message>
        <source>Tls</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>Ca file</source>
        <translation>CA-Datei</translation>
    </message>
    <message>
        <source>PEM roots for tls=custom_ca.</source>
        <translation>PEM-Stammzertifikate für tls=custom_ca.</translation>
    </message>
    <message>
        <source>Client cert file</source>
        <translation>Client-Zertifikatsdatei</translation>
    </message>
    <message>
        <source>PEM client certificate.</source>
        <translation>PEM-Client-Zertifikat.</translation>
    </message>
    <message>
        <source>Client key file</source>
        <translation>Client-Schlüsseldatei</translation>
    </message>
    <message>
        <source>PEM client private key.</source>
        <translation>Privater PEM-Client-Schlüssel.</translation>
    </message>
    <message>
        <source>Tls server name</source>
        <translation>TLS-Servername</translation>
    </message>
    <message>
        <source>Name to verify in the server certificate, if not the host.</source>
        <translation>Im Serverzertifikat zu prüfender Name, falls nicht der Host.</translation>
    </message>
    <message>
        <source>User id</source>
        <translation>Benutzer-ID</translation>
    </message>
    <message>
        <source>Workspace id</source>
        <translation>Arbeitsbereich-ID</translation>
    </message>
    <message>
        <source>Agent id</source>
        <translation>Agenten-ID</translation>
    </message>
    <message>
        <source>Agent slug; empty lets the Manager route.</source>
        <translation>Kurzname des Agenten; leer lässt den Manager entscheiden.</translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation>Systemprompt</translation>
    </message>
    <message>
        <source>Keepalive seconds</source>
        <translation>Keepalive-Sekunden</translation>
    </message>
    <message>
        <source>Connect timeout</source>
        <translation>Verbindungs-Zeitlimit</translation>
    </message>
    <message>
        <source>How long a turn waits for the runtime to be reachable.</source>
        <translation>Wie lange ein Durchgang wartet, bis die Laufzeit erreichbar ist.</translation>
    </message>
    <message>
        <source>An Agent Client Protocol agent: a catalogue preset or a custom command.</source>
        <translation>Ein Agent mit Agent Client Protocol: eine Vorlage aus dem Katalog oder ein eigener Befehl.</translation>
    </message>
    <message>
        <source>Catalogue entry, or custom for command.</source>
        <translation>Katalogeintrag, oder custom für einen Befehl.</translation>
    </message>
    <message>
        <source>Program and arguments (custom), or a program path overriding the preset&apos;s.</source>
        <translation>Programm und Argumente (custom) oder ein Programmpfad statt dem der Vorlage.</translation>
    </message>
    <message>
        <source>Provider endpoint for presets that take one; empty for the default.</source>
        <translation>Anbieter-Endpunkt für Vorlagen, die einen nehmen; leer für den Standard.</translation>
    </message>
    <message>
        <source>OpenAI Codex through ``codex app-server``; a base URL means an Agent Desk-managed</source>
        <translation>OpenAI Codex über ``codex app-server``; eine Basis-URL bedeutet einen von Agent Desk verwalteten</translation>
    </message>
    <message>
        <source>codex program or path.</source>
        <translation>codex-Programm oder Pfad.</translation>
    </message>
    <message>
        <source>Empty: Codex&apos;s default.</source>
        <translation>Leer: Standard von Codex.</translation>
    </message>
    <message>
        <source>OpenAI Responses endpoint of a custom provider; empty: Codex&apos;s own login.</source>
        <translation>OpenAI-Responses-Endpunkt eines eigenen Anbieters; leer: eigene Anmeldung von Codex.</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Provider profile whose stored key Codex uses.</source>
        <translation>Anbieterprofil, dessen gespeicherten Schlüssel Codex nutzt.</translation>
    </message>
    <message>
        <source>Sandbox</source>
        <translation>Sandbox</translation>
    </message>
    <message>
        <source>What commands may touch.</source>
        <translation>Was Befehle berühren dürfen.</translation>
    </message>
    <message>
        <source>Approval policy</source>
        <translation>Freigaberegel</translation>
    </message>
    <message>
        <source>When Codex asks.</source>
        <translation>Wann Codex fragt.</translation>
    </message>
    <message>
        <source>Default agent</source>
        <translation>Standard-Agent</translation>
    </message>
    <message>
        <source>Agent of new conversations.</source>
        <translation>Agent neuer Unterhaltungen.</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Freigaben</translation>
    </message>
    <message>
        <source>How new conversations start approving tool calls.</source>
        <translation>Wie neue Unterhaltungen Werkzeugaufrufe anfangs freigeben.</translation>
    </message>
    <message>
        <source>Approval mode</source>
        <translation>Freigabemodus</translation>
    </message>
    <message>
        <source>default asks for edits and commands; auto_edit approves reads and edits; yolo approves everything.</source>
        <translation>default fragt bei Änderungen und Befehlen; auto_edit erlaubt Lesen und Ändern; yolo erlaubt alles.</translation>
    </message>
    <message>
        <source>Stop idle agents after</source>
        <translation>Untätige Agenten beenden nach</translation>
    </message>
    <message>
        <source>Minutes without a prompt before a conversation&apos;s agent is stopped to free its memory; the next prompt resumes it. 0: never.</source>
        <translation>Minuten ohne Eingabe, bevor der Agent einer Unterhaltung beendet wird, um seinen Speicher freizugeben; die nächste Eingabe setzt ihn fort. 0: nie.</translation>
    </message>
    <message>
        <source>Check for updates</source>
        <translation>Nach Updates suchen</translation>
    </message>
    <message>
        <source>Once a day, ask the project&apos;s releases page whether a newer version exists. Nothing is sent but the request.</source>
        <translation>Einmal täglich auf der Release-Seite des Projekts nachsehen, ob es eine neuere Version gibt. Außer der Anfrage selbst wird nichts gesendet.</translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation>Darstellung</translation>
    </message>
    <message>
        <source>Look of the window.</source>
        <translation>Aussehen des Fensters.</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Design</translation>
    </message>
    <message>
        <source>Follow the system?</source>
        <translation>Wie das System?</translation>
    </message>
    <message>
        <source>Font size</source>
        <translation>Schriftgröße</translation>
    </message>
    <message>
        <source>In points.</source>
        <translation>In Punkt.</translation>
    </message>
    <message>
        <source>Which extensions load. Added within schema 2: files without it get these defaults.</source>
        <translation>Welche Erweiterungen laden. In Schema 2 hinzugekommen: Dateien ohne es erhalten diese Standardwerte.</translation>
    </message>
    <message>
        <source>Enabled built-ins</source>
        <translation>Eingeschaltete eingebaute Erweiterungen</translation>
    </message>
    <message>
        <source>Built-in extensions that are switched on (all are off by default).</source>
        <translation>Eingebaute Erweiterungen, die eingeschaltet sind (standardmäßig sind alle aus).</translation>
    </message>
    <message>
        <source>Disabled extensions</source>
        <translation>Ausgeschaltete Erweiterungen</translation>
    </message>
    <message>
        <source>Extension folder names that are not loaded even when found.</source>
        <translation>Ordnernamen von Erweiterungen, die auch gefunden nicht geladen werden.</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>Wiederherstellungspunkte</translation>
    </message>
    <message>
        <source>Checkpoints of the workspace around each turn, for review and restore.</source>
        <translation>Wiederherstellungspunkte des Arbeitsbereichs um jeden Durchgang, zum Prüfen und Wiederherstellen.</translation>
    </message>
    <message>
        <source>Largest file recorded</source>
        <translation>Größte aufgezeichnete Datei</translation>
    </message>
    <message>
        <source>In MB; larger files are left out of checkpoints (and named).</source>
        <translation>In MB; größere Dateien werden nicht aufgezeichnet (und genannt).</translation>
    </message>
    <message>
        <source>Disk space for checkpoints</source>
        <translation>Speicherplatz für Wiederherstellungspunkte</translation>
    </message>
    <message>
        <source>In GB per workspace; the oldest conversations&apos; checkpoints go first.</source>
        <translation>In GB je Arbeitsbereich; die Punkte der ältesten Unterhaltungen werden zuerst gelöscht.</translation>
    </message>
    <message>
        <source>Recent workspaces</source>
        <translation>Zuletzt genutzte Arbeitsbereiche</translation>
    </message>
    <message>
        <source>Most recent first.</source>
        <translation>Neueste zuerst.</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Allgemein</translation>
    </message>
    <message>
        <source>Extensions</source>
        <translation>Erweiterungen</translation>
    </message>
    <message>
        <source>Settings — Agent Desk</source>
        <extracomment>Top-level fields edited on their own pages (lists) or not editable (the version).</extracomment>
        <translation>Einstellungen — Agent Desk</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save every page (Ctrl+S)</source>
        <translation>Alle Seiten speichern (Strg+S)</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Close (Esc); unsaved changes are dropped</source>
        <translation>Schließen (Esc); ungespeicherte Änderungen gehen verloren</translation>
    </message>
    <message>
        <source>no value for the secret {0}</source>
        <translation>kein Wert für das Geheimnis {0}</translation>
    </message>
    <message>
        <source>Could not write the settings file: {0}</source>
        <translation>Die Einstellungsdatei konnte nicht geschrieben werden: {0}</translation>
    </message>
    <message>
        <source>Saved to {0}</source>
        <translation>Gespeichert in {0}</translation>
    </message>
    <message>
        <source>Not saved — </source>
        <translation>Nicht gespeichert — </translation>
    </message>
    <message>
        <source>Tool servers every agent gets (secrets stay in the keyring).</source>
        <translation>Werkzeug-Server für jeden Agenten (Geheimnisse bleiben im Schlüsselbund).</translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation>MCP-Server</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <source>{0} (not found)</source>
        <extracomment>Data of a ``NameChoice``&apos;s &quot;New …&quot; entry.</extracomment>
        <translation>{0} (nicht gefunden)</translation>
    </message>
    <message>
        <source>program --flag &apos;an argument&apos;</source>
        <extracomment>Argument-vector fields edited as one shell-quoted line rather than one item per line.</extracomment>
        <translation>programm --option &apos;ein Argument&apos;</translation>
    </message>
    <message>
        <source>one per line</source>
        <translation>eines pro Zeile</translation>
    </message>
    <message>
        <source>NAME=value, one per line</source>
        <translation>NAME=Wert, eines pro Zeile</translation>
    </message>
    <message>
        <source>empty for the default</source>
        <translation>leer für den Standardwert</translation>
    </message>
    <message>
        <source>path to a file</source>
        <translation>Pfad zu einer Datei</translation>
    </message>
    <message>
        <source>{0}:</source>
        <translation>{0}:</translation>
    </message>
    <message>
        <source>Add</source>
        <extracomment>Agent kind → model class, from the union itself (a new kind gets a form by itself).</extracomment>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add to {0}</source>
        <translation>Zu {0} hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Remove from {0}</source>
        <translation>Aus {0} entfernen</translation>
    </message>
    <message>
        <source>New profile</source>
        <translation>Neues Profil</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>New profile…</source>
        <extracomment>The fields that name a provider profile: a choice of the profiles, and &quot;New profile…&quot;.</extracomment>
        <translation>Neues Profil…</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>Signing key</source>
        <translation>Signaturschlüssel</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>aionrs JSON stream</source>
        <translation>aionrs-JSON-Stream</translation>
    </message>
    <message>
        <source>Agent Client Protocol (ACP)</source>
        <translation>Agent Client Protocol (ACP)</translation>
    </message>
    <message>
        <source>Codex app-server</source>
        <translation>Codex-App-Server</translation>
    </message>
    <message>
        <source>Custom command</source>
        <translation>Eigener Befehl</translation>
    </message>
    <message>
        <source>Read only</source>
        <translation>Nur lesen</translation>
    </message>
    <message>
        <source>Write inside the workspace</source>
        <translation>Im Arbeitsbereich schreiben</translation>
    </message>
    <message>
        <source>Full access (no sandbox)</source>
        <translation>Voller Zugriff (ohne Sandbox)</translation>
    </message>
    <message>
        <source>When Codex asks</source>
        <translation>Wenn Codex fragt</translation>
    </message>
    <message>
        <source>When a command fails</source>
        <translation>Wenn ein Befehl fehlschlägt</translation>
    </message>
    <message>
        <source>Never ask</source>
        <translation>Nie fragen</translation>
    </message>
    <message>
        <source>Auto-approve read-only tools</source>
        <translation>Nur lesende Werkzeuge automatisch erlauben</translation>
    </message>
    <message>
        <source>Deny listed shell commands</source>
        <translation>Gesperrte Shell-Befehle ablehnen</translation>
    </message>
    <message>
        <source>Review file changes</source>
        <translation>Dateiänderungen prüfen</translation>
    </message>
    <message>
        <source>Built-in agent</source>
        <translation>Eingebauter Agent</translation>
    </message>
    <message>
        <source>Remote runtime</source>
        <translation>Entfernte Laufzeit</translation>
    </message>
    <message>
        <source>ACP agent</source>
        <translation>ACP-Agent</translation>
    </message>
    <message>
        <source>Codex&apos;s own login</source>
        <translation>Eigene Anmeldung von Codex</translation>
    </message>
    <message>
        <source>Agent&apos;s default</source>
        <translation>Standard des Agenten</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Standard</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings pages</source>
        <extracomment>Pages by their (untranslated) name, which ``show_page`` takes.</extracomment>
        <translation>Einstellungsseiten</translation>
    </message>
</context>
<context>
    <name>Shortcuts</name>
    <message>
        <source>These keys act only on the request that has the keyboard (the accent ring). Whatever you type in the prompt stays in the prompt: no key typed there ever decides, and no character is lost. A new request takes the keyboard only when the prompt is empty and you have not typed for 1.5 s (the Enter that sent it counts); otherwise it shows “Tab to review” and waits. The request with the keyboard is always scrolled into view; clicking a card&apos;s toggles leaves the keyboard in the prompt.</source>
        <extracomment>The approval cards&apos; keyboard contract.</extracomment>
        <translation>Diese Tasten wirken nur auf die Anfrage, die die Tastatur hat (der farbige Rahmen). Was du in die Eingabe tippst, bleibt in der Eingabe: Keine dort getippte Taste entscheidet je, und kein Zeichen geht verloren. Eine neue Anfrage übernimmt die Tastatur nur, wenn die Eingabe leer ist und du 1,5 s nichts getippt hast (das Enter, das sie gesendet hat, zählt mit); sonst zeigt sie „Tab zum Prüfen“ und wartet. Die Anfrage mit der Tastatur ist immer im sichtbaren Bereich; Klicks auf die Schalter einer Karte lassen die Tastatur in der Eingabe.</translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation>Unterhaltung</translation>
    </message>
    <message>
        <source>Send the prompt</source>
        <translation>Die Eingabe senden</translation>
    </message>
    <message>
        <source>New line in the prompt</source>
        <translation>Neue Zeile in der Eingabe</translation>
    </message>
    <message>
        <source>Stop the running turn</source>
        <translation>Den laufenden Durchgang anhalten</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Neue Unterhaltung</translation>
    </message>
    <message>
        <source>Rename the conversation</source>
        <translation>Die Unterhaltung umbenennen</translation>
    </message>
    <message>
        <source>Find in this conversation</source>
        <translation>In dieser Unterhaltung suchen</translation>
    </message>
    <message>
        <source>Find: next match</source>
        <translation>Suche: nächster Treffer</translation>
    </message>
    <message>
        <source>Find: previous match (Esc closes the find bar)</source>
        <translation>Suche: vorheriger Treffer (Esc schließt die Suchleiste)</translation>
    </message>
    <message>
        <source>Search every conversation</source>
        <translation>Alle Unterhaltungen durchsuchen</translation>
    </message>
    <message>
        <source>Undo (in the sidebar: bring back a deleted conversation)</source>
        <translation>Rückgängig (in der Seitenleiste: eine gelöschte Unterhaltung zurückholen)</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederherstellen</translation>
    </message>
    <message>
        <source>Cut, copy, paste</source>
        <translation>Ausschneiden, kopieren, einfügen</translation>
    </message>
    <message>
        <source>Select all</source>
        <translation>Alles auswählen</translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation>Freigaben</translation>
    </message>
    <message>
        <source>Approve once</source>
        <translation>Einmal erlauben</translation>
    </message>
    <message>
        <source>Approve always (this kind of tool, this conversation)</source>
        <translation>Immer erlauben (diese Art Werkzeug, diese Unterhaltung)</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>Deny with a reason</source>
        <translation>Mit Grund ablehnen</translation>
    </message>
    <message>
        <source>Deny always (where the agent offers it)</source>
        <translation>Immer ablehnen (wo der Agent es anbietet)</translation>
    </message>
    <message>
        <source>From the prompt: review the first waiting request</source>
        <translation>Aus der Eingabe: die erste wartende Anfrage prüfen</translation>
    </message>
    <message>
        <source>Back to the prompt</source>
        <translation>Zurück zur Eingabe</translation>
    </message>
    <message>
        <source>Previous / next waiting request</source>
        <translation>Vorige / nächste wartende Anfrage</translation>
    </message>
    <message>
        <source>Scroll the request&apos;s diff or command</source>
        <translation>Die Änderungen oder den Befehl der Anfrage scrollen</translation>
    </message>
    <message>
        <source>Diff: unified or side by side</source>
        <translation>Änderungen: einspaltig oder nebeneinander</translation>
    </message>
    <message>
        <source>Review the request&apos;s change full-window</source>
        <translation>Die Änderung der Anfrage im ganzen Fenster prüfen</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Back to the conversation, the keyboard where it was</source>
        <translation>Zurück zur Unterhaltung, die Tastatur, wo sie war</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>Nächste Änderung</translation>
    </message>
    <message>
        <source>Previous change</source>
        <translation>Vorige Änderung</translation>
    </message>
    <message>
        <source>Unified or side by side</source>
        <translation>Einspaltig oder nebeneinander</translation>
    </message>
    <message>
        <source>Wrap long lines</source>
        <translation>Lange Zeilen umbrechen</translation>
    </message>
    <message>
        <source>Next file</source>
        <translation>Nächste Datei</translation>
    </message>
    <message>
        <source>Previous file</source>
        <translation>Vorige Datei</translation>
    </message>
    <message>
        <source>Next / previous hunk</source>
        <translation>Nächster / voriger Abschnitt</translation>
    </message>
    <message>
        <source>A turn&apos;s changes: revert the hunk under review</source>
        <translation>Änderungen eines Zugs: den geprüften Abschnitt zurücknehmen</translation>
    </message>
    <message>
        <source>Changes: revert the file under review</source>
        <translation>Änderungen: die geprüfte Datei zurücknehmen</translation>
    </message>
    <message>
        <source>Changes: undo the last revert</source>
        <translation>Änderungen: die letzte Zurücknahme rückgängig machen</translation>
    </message>
    <message>
        <source>Approve, always, deny the request under review</source>
        <translation>Die geprüfte Anfrage erlauben, immer erlauben, ablehnen</translation>
    </message>
    <message>
        <source>The approval keys of the card work in the review and decide the request shown; the review then shows the next waiting change, or the conversation.</source>
        <translation>Die Freigabetasten der Karte wirken auch in der Prüfansicht und entscheiden die gezeigte Anfrage; danach zeigt sie die nächste wartende Änderung oder die Unterhaltung.</translation>
    </message>
    <message>
        <source>View</source>
        <translation>Ansicht</translation>
    </message>
    <message>
        <source>Zoom in (every part of every window)</source>
        <translation>Vergrößern (jeder Teil jedes Fensters)</translation>
    </message>
    <message>
        <source>Zoom out</source>
        <translation>Verkleinern</translation>
    </message>
    <message>
        <source>Actual size</source>
        <translation>Originalgröße</translation>
    </message>
    <message>
        <source>Show or hide the sidebar</source>
        <translation>Seitenleiste ein- oder ausblenden</translation>
    </message>
    <message>
        <source>Review everything this conversation changed</source>
        <translation>Alles prüfen, was dieses Gespräch geändert hat</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>Open a workspace (in its own window)</source>
        <translation>Einen Arbeitsbereich öffnen (in einem eigenen Fenster)</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Close the window</source>
        <translation>Das Fenster schließen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
</context>
<context>
    <name>ShortcutsWindow</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <extracomment>Keys Qt spells as words that read better as symbols.</extracomment>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>{title} shortcuts</source>
        <translation>Tastenkürzel: {title}</translation>
    </message>
    <message>
        <source>or</source>
        <translation>oder</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <source>The agent starts with your first message</source>
        <extracomment>``SessionState`` values in words (a test keeps the keys equal to the enum&apos;s values).</extracomment>
        <translation>Der Agent startet mit deiner ersten Nachricht</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Wird gestartet…</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Working…</source>
        <translation>Arbeitet…</translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation>Wartet auf deine Freigabe</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird angehalten…</translation>
    </message>
    <message>
        <source>Agent stopped</source>
        <translation>Agent angehalten</translation>
    </message>
    <message>
        <source>Status</source>
        <extracomment>The model and agent-mode pickers, built when a conversation first offers a choice.</extracomment>
        <translation>Status</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>Agent</translation>
    </message>
    <message>
        <source>Approval mode</source>
        <translation>Freigabemodus</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>Tokens</translation>
    </message>
    <message>
        <source>Agent of this conversation</source>
        <extracomment>The conversation&apos;s MCP servers (&quot;MCP: 2 connected, 1 failed&quot;), with a popup.</extracomment>
        <translation>Agent dieser Unterhaltung</translation>
    </message>
    <message>
        <source>Approval mode of this conversation</source>
        <translation>Freigabemodus dieser Unterhaltung</translation>
    </message>
    <message>
        <source>Tokens in {0} · out {1} · cache {2}</source>
        <translation>Tokens ein {0} · aus {1} · Cache {2}</translation>
    </message>
    <message>
        <source>No cost estimate: the price table does not know this model</source>
        <translation>Keine Kostenschätzung: Die Preistabelle kennt dieses Modell nicht</translation>
    </message>
    <message>
        <source>≈ at least {0}</source>
        <translation>≈ mindestens {0}</translation>
    </message>
    <message>
        <source>≈ {0}</source>
        <translation>≈ {0}</translation>
    </message>
    <message>
        <source>Estimated from the price table (Settings ▸ Usage and cost); the bill may differ</source>
        <translation>Aus der Preistabelle geschätzt (Einstellungen ▸ Verbrauch und Kosten); die Rechnung kann abweichen</translation>
    </message>
</context>
<context>
    <name>ThinkingView</name>
    <message>
        <source>Show thinking</source>
        <extracomment>Characters of the latest reasoning shown under the header while it streams (two or three lines in a usual column). Characters appended to the text at once.</extracomment>
        <translation>Denken anzeigen</translation>
    </message>
    <message>
        <source>Latest thinking</source>
        <translation>Neuestes Denken</translation>
    </message>
    <message>
        <source>Thinking</source>
        <translation>Denken</translation>
    </message>
    <message>
        <source>Thought</source>
        <translation>Nachgedacht</translation>
    </message>
    <message>
        <source>Thinking…</source>
        <translation>Denkt nach…</translation>
    </message>
    <message>
        <source>{count} characters</source>
        <translation>{count} Zeichen</translation>
    </message>
    <message>
        <source>Hide thinking</source>
        <translation>Denken ausblenden</translation>
    </message>
</context>
<context>
    <name>ToolCard</name>
    <message>
        <source>running…</source>
        <extracomment>Rows of a finished tool&apos;s diff shown before it scrolls inside itself. Rows of a finished tool&apos;s text output shown before it scrolls inside itself. Lines a running command&apos;s live output keeps (its end; the transcript keeps 64 KiB). What the line says about a call&apos;s run, by status (&quot;&quot; says nothing: the outcome says it). How a call ran, in words (translated where shown, context &quot;ToolCard&quot;).</extracomment>
        <translation>läuft…</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Tool call: {what}</source>
        <extracomment>The output streamed while it runs (``_show_live``), and how much of it was shown. Who decided, in words (the line&apos;s outcome label).</extracomment>
        <translation>Werkzeugaufruf: {what}</translation>
    </message>
    <message>
        <source>Live output</source>
        <translation>Laufende Ausgabe</translation>
    </message>
    <message>
        <source>Tool output</source>
        <translation>Ausgabe des Werkzeugs</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Review the change full-window</source>
        <translation>Die Änderung im ganzen Fenster prüfen</translation>
    </message>
    <message>
        <source>cancelled: {reason}</source>
        <translation>abgebrochen: {reason}</translation>
    </message>
</context>
<context>
    <name>ToolReason</name>
    <message>
        <source>a later call of this turn reused its id</source>
        <translation>ein späterer Aufruf dieses Durchgangs hat seine ID wiederverwendet</translation>
    </message>
    <message>
        <source>another call of this turn has the same id</source>
        <translation>ein anderer Aufruf dieses Durchgangs hat dieselbe ID</translation>
    </message>
    <message>
        <source>Background agents may only read files inside the workspace.</source>
        <translation>Hintergrund-Agenten dürfen nur Dateien im Arbeitsbereich lesen.</translation>
    </message>
    <message>
        <source>The command matches the deny list pattern {pattern}</source>
        <translation>Der Befehl passt zum Muster {pattern} der Sperrliste</translation>
    </message>
    <message>
        <source>The turn was cancelled</source>
        <translation>Der Durchgang wurde abgebrochen</translation>
    </message>
    <message>
        <source>The agent is shutting down</source>
        <translation>Der Agent wird beendet</translation>
    </message>
    <message>
        <source>The agent exited</source>
        <translation>Der Agent wurde beendet</translation>
    </message>
    <message>
        <source>The turn was interrupted</source>
        <translation>Der Durchgang wurde unterbrochen</translation>
    </message>
    <message>
        <source>Codex withdrew the request</source>
        <translation>Codex hat die Anfrage zurückgezogen</translation>
    </message>
    <message>
        <source>The connection to the runtime ended</source>
        <translation>Die Verbindung zur Laufzeit ist beendet</translation>
    </message>
    <message>
        <source>The runtime ended the turn without a result</source>
        <translation>Die Laufzeit hat den Durchgang ohne Ergebnis beendet</translation>
    </message>
    <message>
        <source>The conversation was closed</source>
        <translation>Die Unterhaltung wurde geschlossen</translation>
    </message>
    <message>
        <source>The agent is being shut down</source>
        <translation>Der Agent wird beendet</translation>
    </message>
    <message>
        <source>Stopped by the user</source>
        <translation>Von dir angehalten</translation>
    </message>
    <message>
        <source>The turn ended</source>
        <translation>Der Durchgang ist beendet</translation>
    </message>
    <message>
        <source>Codex resolved the request</source>
        <translation>Codex hat die Anfrage selbst erledigt</translation>
    </message>
</context>
<context>
    <name>ToolSentence</name>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>Edit</source>
        <translation>Ändern</translation>
    </message>
    <message>
        <source>in {path}</source>
        <translation>in {path}</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Ausführen</translation>
    </message>
    <message>
        <source>Read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>List</source>
        <translation>Auflisten</translation>
    </message>
    <message>
        <source>Search the web for</source>
        <translation>Im Web suchen nach</translation>
    </message>
    <message>
        <source>Search for</source>
        <translation>Suchen nach</translation>
    </message>
    <message>
        <source>Fetch</source>
        <translation>Abrufen</translation>
    </message>
    <message>
        <source>Use tool</source>
        <translation>Werkzeug nutzen</translation>
    </message>
</context>
<context>
    <name>TrustDialog</name>
    <message>
        <source>Trust extension {display_name}?</source>
        <translation>Der Erweiterung {display_name} vertrauen?</translation>
    </message>
    <message>
        <source>&lt;b&gt;{display_name}&lt;/b&gt; {version} wants to run in this workspace</source>
        <translation>&lt;b&gt;{display_name}&lt;/b&gt; {version} möchte in diesem Arbeitsbereich laufen</translation>
    </message>
    <message>
        <source>Workspace extensions are Python code that came with the repository. Trust it only if you trust its authors: it runs with your permissions and can approve or deny tool calls.</source>
        <translation>Erweiterungen eines Arbeitsbereichs sind Python-Code, der mit dem Repository kam. Vertraue ihm nur, wenn du seinen Autoren vertraust: Er läuft mit deinen Rechten und kann Werkzeugaufrufe erlauben oder ablehnen.</translation>
    </message>
    <message>
        <source>Folder: {folder}
Content hash: {digest}…</source>
        <translation>Ordner: {folder}
Inhalts-Hash: {digest}…</translation>
    </message>
    <message>
        <source>Manifest</source>
        <translation>Manifest</translation>
    </message>
    <message>
        <source>Trust and load</source>
        <translation>Vertrauen und laden</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Nicht jetzt</translation>
    </message>
    <message>
        <source>Trusted, but loading failed: {errors}</source>
        <translation>Vertraut, aber das Laden ist fehlgeschlagen: {errors}</translation>
    </message>
</context>
<context>
    <name>TurnUsage</name>
    <message>
        <source>{n} in</source>
        <translation>{n} ein</translation>
    </message>
    <message>
        <source>{n} out</source>
        <translation>{n} aus</translation>
    </message>
    <message>
        <source>{n} cached</source>
        <translation>{n} zwischengespeichert</translation>
    </message>
    <message>
        <source>Turn usage: {what}</source>
        <translation>Verbrauch des Durchgangs: {what}</translation>
    </message>
</context>
<context>
    <name>UnavailableAgentNotice</name>
    <message>
        <source>{recorded} is not available</source>
        <extracomment>The Settings page where agents are added (``SettingsDialog.pages``).</extracomment>
        <translation>{recorded} ist nicht verfügbar</translation>
    </message>
    <message>
        <source>Continue with {alternative}</source>
        <translation>Mit {alternative} fortsetzen</translation>
    </message>
    <message>
        <source>Continue this conversation with {alternative}; it gets a summary of it</source>
        <translation>Diese Unterhaltung mit {alternative} fortsetzen; er erhält eine Zusammenfassung</translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation>Einstellungen öffnen</translation>
    </message>
    <message>
        <source>Add {recorded} or install its program in Settings ▸ Agents</source>
        <translation>{recorded} hinzufügen oder sein Programm unter Einstellungen ▸ Agenten installieren</translation>
    </message>
    <message>
        <source>This conversation was recorded with {recorded}, which is not available: {reason}. Nothing was started.</source>
        <translation>Diese Unterhaltung wurde mit {recorded} aufgezeichnet, der nicht verfügbar ist: {reason}. Es wurde nichts gestartet.</translation>
    </message>
    <message>
        <source>Continuing this conversation with {name}.</source>
        <translation>Diese Unterhaltung wird mit {name} fortgesetzt.</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <source>Undo deletion</source>
        <translation>Löschen rückgängig machen</translation>
    </message>
    <message>
        <source>Deleted</source>
        <translation>Gelöscht</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Undo the deletion</source>
        <translation>Das Löschen rückgängig machen</translation>
    </message>
    <message>
        <source>Undo the deletion (Ctrl+Z)</source>
        <translation>Das Löschen rückgängig machen (Strg+Z)</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>Ausblenden</translation>
    </message>
    <message>
        <source> +{0}</source>
        <translation> +{0}</translation>
    </message>
    <message>
        <source>Untitled conversation</source>
        <translation>Unbenannte Unterhaltung</translation>
    </message>
    <message>
        <source>Deleted “{0}”</source>
        <translation>„{0}“ gelöscht</translation>
    </message>
</context>
<context>
    <name>Updates</name>
    <message>
        <source>Already checking for updates…</source>
        <translation>Die Suche nach Updates läuft bereits…</translation>
    </message>
    <message>
        <source>Checking for updates…</source>
        <translation>Suche nach Updates…</translation>
    </message>
    <message>
        <source>Download…</source>
        <translation>Herunterladen…</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Später</translation>
    </message>
    <message>
        <source>Agent Desk {latest} is available. You have {current}.</source>
        <translation>Agent Desk {latest} ist verfügbar. Installiert ist {current}.</translation>
    </message>
    <message>
        <source>Download it from the release page: {url}</source>
        <translation>Herunterladen von der Release-Seite: {url}</translation>
    </message>
    <message>
        <source>Update Available</source>
        <translation>Update verfügbar</translation>
    </message>
    <message>
        <source>Agent Desk {current} is the latest version.</source>
        <translation>Agent Desk {current} ist die neueste Version.</translation>
    </message>
    <message>
        <source>No Update Available</source>
        <translation>Kein Update verfügbar</translation>
    </message>
    <message>
        <source>This Agent Desk ({current}) is newer than the latest release ({latest}).</source>
        <translation>Dieses Agent Desk ({current}) ist neuer als das neueste Release ({latest}).</translation>
    </message>
    <message>
        <source>The releases page could not be reached. Check the network connection and try again later.</source>
        <translation>Die Release-Seite war nicht erreichbar. Prüfe die Netzwerkverbindung und versuche es später erneut.</translation>
    </message>
    <message>
        <source>The releases page answered with an error. Try again later.</source>
        <translation>Die Release-Seite antwortete mit einem Fehler. Versuche es später erneut.</translation>
    </message>
    <message>
        <source>The releases page answered with something that is not a release. Try again later.</source>
        <translation>Die Release-Seite antwortete mit etwas, das kein Release ist. Versuche es später erneut.</translation>
    </message>
    <message>
        <source>Update Check Failed</source>
        <translation>Update-Suche fehlgeschlagen</translation>
    </message>
    <message>
        <source>Could not check for updates.</source>
        <translation>Die Suche nach Updates war nicht möglich.</translation>
    </message>
</context>
<context>
    <name>UserBubble</name>
    <message>
        <source>queued: sent when the agent is free</source>
        <translation>in der Warteschlange: wird gesendet, sobald der Agent frei ist</translation>
    </message>
    <message>
        <source>Your message</source>
        <translation>Deine Nachricht</translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <source>The agent</source>
        <extracomment>Base URLs of the usual local servers (filled in by the quick buttons).</extracomment>
        <translation>Der Agent</translation>
    </message>
    <message>
        <source>Agent Desk&apos;s built-in agent</source>
        <translation>Der eingebaute Agent von Agent Desk</translation>
    </message>
    <message>
        <source>Set up an agent</source>
        <translation>Einen Agenten einrichten</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modell</translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation>Basis-URL</translation>
    </message>
    <message>
        <source>http://localhost:11434/v1</source>
        <translation>http://localhost:11434/v1</translation>
    </message>
    <message>
        <source>Agent to use</source>
        <translation>Zu nutzender Agent</translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation>Einstellungen öffnen</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Verbindung testen</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Nutzen</translation>
    </message>
    <message>
        <source>Use this agent</source>
        <translation>Diesen Agenten nutzen</translation>
    </message>
    <message>
        <source>e.g. llama3.1, qwen2.5-coder</source>
        <translation>z. B. llama3.1, qwen2.5-coder</translation>
    </message>
    <message>
        <source>Optional for local servers</source>
        <translation>Für lokale Server optional</translation>
    </message>
    <message>
        <source>sk-ant-…</source>
        <translation>sk-ant-…</translation>
    </message>
    <message>
        <source>sk-…</source>
        <translation>sk-…</translation>
    </message>
    <message>
        <source>Paste your API key first.</source>
        <translation>Zuerst deinen API-Schlüssel einfügen.</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Wird getestet…</translation>
    </message>
    <message>
        <source>{title} is not installed yet: press Install above.</source>
        <translation>{title} ist noch nicht installiert: Drücke oben auf „Installieren“.</translation>
    </message>
    <message>
        <source>Check the fields: {error}</source>
        <translation>Bitte die Felder prüfen: {error}</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>Wird gespeichert…</translation>
    </message>
    <message>
        <source>Saved. Starting the agent…</source>
        <translation>Gespeichert. Der Agent wird gestartet…</translation>
    </message>
    <message>
        <source>Enter the server&apos;s address, e.g. http://localhost:11434/v1.</source>
        <translation>Die Adresse des Servers eingeben, z. B. http://localhost:11434/v1.</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <extracomment>The segmented choice: (value, label). ``agent``: an installed agent instead of a provider.</extracomment>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>OpenAI</source>
        <translation>OpenAI</translation>
    </message>
    <message>
        <source>Local / compatible</source>
        <translation>Lokal / kompatibel</translation>
    </message>
    <message>
        <source>Installed agent</source>
        <translation>Installierter Agent</translation>
    </message>
    <message>
        <source>Enter a model name.</source>
        <translation>Einen Modellnamen eingeben.</translation>
    </message>
</context>
<context>
    <name>When</name>
    <message>
        <source>just now</source>
        <translation>gerade eben</translation>
    </message>
    <message>
        <source>{0} min ago</source>
        <translation>vor {0} min</translation>
    </message>
    <message>
        <source>{0} h ago</source>
        <translation>vor {0} h</translation>
    </message>
    <message>
        <source>yesterday</source>
        <translation>gestern</translation>
    </message>
    <message>
        <source>Draft</source>
        <translation>Entwurf</translation>
    </message>
</context>
<context>
    <name>WindowAddons</name>
    <message>
        <source>Settings (Ctrl+,)</source>
        <translation>Einstellungen (Strg+,)</translation>
    </message>
    <message>
        <source>Suggest next prompt</source>
        <translation>Nächste Eingabe vorschlagen</translation>
    </message>
    <message>
        <source>Ask the extensions for a next prompt (it goes into the editor)</source>
        <translation>Die Erweiterungen um eine nächste Eingabe bitten (sie kommt in den Editor)</translation>
    </message>
    <message>
        <source>{command} (--agent-cmd)</source>
        <translation>{command} (--agent-cmd)</translation>
    </message>
    <message>
        <source>Set on the command line: {command}</source>
        <translation>Auf der Befehlszeile gesetzt: {command}</translation>
    </message>
    <message>
        <source>Agent for new conversations: {agent}</source>
        <translation>Agent für neue Unterhaltungen: {agent}</translation>
    </message>
    <message>
        <source>Suggesting…</source>
        <translation>Wird vorgeschlagen…</translation>
    </message>
    <message>
        <source>Suggest</source>
        <translation>Vorschlagen</translation>
    </message>
</context>
<context>
    <name>WorkspaceWindow</name>
    <message>
        <source>{workspace} — Agent Desk</source>
        <translation>{workspace} — Agent Desk</translation>
    </message>
    <message>
        <source>  &amp;Agent: </source>
        <extracomment>The status bar&apos;s labels by name (state, agent, mode, tokens).</extracomment>
        <translation>  &amp;Agent: </translation>
    </message>
    <message>
        <source>Agent for new conversations</source>
        <translation>Agent für neue Unterhaltungen</translation>
    </message>
    <message>
        <source>Approval needed</source>
        <translation>Freigabe nötig</translation>
    </message>
    <message>
        <source>{tool} in {name} waits for you</source>
        <translation>{tool} in {name} wartet auf dich</translation>
    </message>
</context>
<context>
    <name>_ConversationDelegate</name>
    <message>
        <source>Conversation title</source>
        <translation>Titel der Unterhaltung</translation>
    </message>
</context>
</TS>
