<?xml version='1.0' encoding='utf-8'?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>an unknown time</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>ONTAP job %1: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" already exists (an earlier attempt succeeded); not created again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" was created by an earlier attempt.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Submitting to ONTAP</source>
        <translation>Wird an ONTAP übermittelt</translation>
    </message>
    <message>
        <source>Snapshot "%1" of %2/%3 created.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Response lost; checking what ONTAP did</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" created (confirmed after the response was lost).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1. ONTAP has no snapshot "%2": it was not applied, so retrying is safe.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" is already gone; nothing to delete.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" of %2/%3 deleted.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" deleted (confirmed after the response was lost).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1. The snapshot still exists, so retrying is safe.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1/%2 was already restored to "%3" by an earlier attempt; not restored again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1/%2 restored to snapshot "%3".</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1/%2 restored to "%3" (confirmed after the response was lost).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1. No restore job for this volume was found on ONTAP, so retrying is safe.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Volume %1/%2 already exists (an earlier attempt created it); not cloned again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>FlexClone %1/%2 was created by an earlier attempt.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>FlexClone %1/%2 created from %3@%4.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>FlexClone %1/%2 created (confirmed after the response was lost).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1. ONTAP has no volume %2/%3, so retrying is safe.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Connected to %1 (ONTAP %2.%3.%4) in %5 ms.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <source>Strata: storage and GPUs behind AI work.</source>
        <translation>Strata: Speicher und GPUs hinter KI-Arbeit.</translation>
    </message>
    <message>
        <source>Config file (default: %1).</source>
        <translation>Konfigurationsdatei (Standard: %1).</translation>
    </message>
    <message>
        <source>Use the built-in simulated estate instead of a config file.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Only this source (repeatable).</source>
        <translation>Nur diese Quelle (wiederholbar).</translation>
    </message>
    <message>
        <source>Only this volume (name or id; repeatable).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Output format: table, json or csv.</source>
        <translation>Ausgabeformat: table, json oder csv.</translation>
    </message>
    <message>
        <source>Give up after this many seconds (default 120).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>get</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>sources, volumes or snapshots</source>
        <translation>sources, volumes oder snapshots</translation>
    </message>
    <message>
        <source>usage: %1 [--config PATH | --demo] get sources|volumes|snapshots [--source NAME] [--volume NAME] [-o table|json|csv]</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unknown output format "%1" (table, json, csv)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--timeout needs a positive number of seconds</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>cannot start the demo estate: %1</source>
        <translation>die Demo-Umgebung kann nicht starten: %1</translation>
    </message>
    <message>
        <source>no source named "%1" is configured</source>
        <translation>keine Quelle namens „%1“ konfiguriert</translation>
    </message>
    <message>
        <source>timed out after %1 s waiting for the sources</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>no answer yet</source>
        <translation>noch keine Antwort</translation>
    </message>
    <message>
        <source>source %1: %2</source>
        <translation>Quelle %1: %2</translation>
    </message>
    <message>
        <source>no volume matches %1</source>
        <translation>kein Volume passt zu %1</translation>
    </message>
    <message>
        <source>timed out listing snapshots</source>
        <translation>Zeitüberschreitung beim Auflisten der Snapshots</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Strata: storage and GPUs behind AI work.</source>
        <translation>Strata: Speicher und GPUs hinter KI-Arbeit.</translation>
    </message>
    <message>
        <source>Start the built-in simulated estate.</source>
        <translation>Die eingebaute simulierte Umgebung starten.</translation>
    </message>
    <message>
        <source>Config file (default: %1).</source>
        <translation>Konfigurationsdatei (Standard: %1).</translation>
    </message>
    <message>
        <source>With --demo: a generated cluster with this many volumes (scale checks).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Same as --demo.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>strata: unknown argument "%1"</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <source>The demo estate could not start: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The configuration cannot be read:
%1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Capacity history and the audit log are not recorded: %1</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::core::ActionManager</name>
    <message>
        <source>Source %1 is not connected.</source>
        <translation>Quelle %1 ist nicht verbunden.</translation>
    </message>
    <message>
        <source>attempt %1</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::core::Engine</name>
    <message>
        <source>No password is stored for %1.</source>
        <translation>Für %1 ist kein Passwort gespeichert.</translation>
    </message>
    <message>
        <source>Cannot read the password of %1: %2</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::core::HistoryService</name>
    <message>
        <source>could not open the history store</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::core::OntapSource</name>
    <message>
        <source>Create snapshot</source>
        <translation>Snapshot erstellen</translation>
    </message>
    <message>
        <source>Delete snapshot</source>
        <translation>Snapshot löschen</translation>
    </message>
    <message>
        <source>Restore volume from snapshot</source>
        <translation>Volume aus Snapshot wiederherstellen</translation>
    </message>
    <message>
        <source>Clone volume from snapshot</source>
        <translation>Volume aus Snapshot klonen</translation>
    </message>
    <message>
        <source>Volume %1 is not known to %2 (yet).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot %1 of %2 is not in the loaded snapshot list.</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <source>%n snapshot(s)</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message>
        <source>ONTAP takes snapshot "%1" of %2 (%3 used) through an asynchronous job.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>It takes no space at first; it then holds the blocks that change (snapshot reserve %1%, %2 used by snapshots now).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" is not a valid snapshot name (letters, digits, _ . -; at most 255 characters).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 already has a snapshot named "%2".</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Volume %1 is %2; ONTAP can only snapshot an online volume.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>ONTAP deletes snapshot "%1" (taken %2) of %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>About %1 held only by this snapshot is freed.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The snapshot cannot be recovered once deleted.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>It carries the SnapMirror label "%1": a protection relationship may expect it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>FlexClone %1/%2 depends on this snapshot; split or delete the clone first.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>current contents (%1 used)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>contents of %1 (%2)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>ONTAP reverts %1 to snapshot "%2" (SnapRestore of the whole volume).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Everything written to %1 after %2 is lost.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Newer snapshot "%1" backs FlexClone %2/%3, so ONTAP cannot restore past it; split or delete the clone first.</source>
        <translation type="unfinished" />
    </message>
    <message numerus="yes">
        <source>%n newer snapshot(s) will be deleted: %1</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message>
        <source>Clients that have the volume mounted may need to remount.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Volume %1 is %2.</source>
        <translation>Volume %1 ist %2.</translation>
    </message>
    <message>
        <source>no volume %1 in %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>FlexClone %1/%2 of %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>ONTAP creates FlexClone volume %1/%2 from %3.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The clone shares blocks with its parent and uses no space until data diverges.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshot "%1" cannot be deleted while the clone exists (until it is split).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>"%1" is not a valid volume name (a letter or _, then letters, digits or _).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>SVM %1 already has a volume named %2.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::desktop::DesktopController</name>
    <message>
        <source>Strata (demo)</source>
        <translation>Strata (Demo)</translation>
    </message>
    <message>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <source>This action cannot be retried: its source is not connected or it did not fail.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>source %1 is not connected.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Capacity history is not recorded in this session.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Capacity history is unavailable: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The volume is no longer known to %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The snapshot is no longer in the list of %1.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The action was not started: %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 started: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 succeeded: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1 failed: %2. %3</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Select it in the Activity panel to retry.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No password is stored for this source.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>%1: connection OK</source>
        <translation>%1: Verbindung OK</translation>
    </message>
    <message>
        <source>%1: connection test failed</source>
        <translation>%1: Verbindungstest fehlgeschlagen</translation>
    </message>
    <message>
        <source>The password of %1 could not be stored: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Source %1 updated.</source>
        <translation>Quelle %1 aktualisiert.</translation>
    </message>
    <message>
        <source>Source %1 added.</source>
        <translation>Quelle %1 hinzugefügt.</translation>
    </message>
    <message>
        <source>Source %1 was removed, but its password could not be deleted from the keychain: %2</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Source %1 removed.</source>
        <translation>Quelle %1 entfernt.</translation>
    </message>
    <message>
        <source>The configuration could not be saved: %1</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::models::ActivityModel</name>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Succeeded (reconciled)</source>
        <translation>Erfolgreich (abgeglichen)</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>Startet…</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Fortschritt</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Ergebnis</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Beendet</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
</context>
<context>
    <name>strata::models::EventTableModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>strata::models::SnapshotListModel</name>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>SnapMirror label</source>
        <translation>SnapMirror-Label</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>Kommentar</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
</context>
<context>
    <name>strata::models::SourceTableModel</name>
    <message>
        <source>Connecting…</source>
        <translation>Verbinde…</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Degraded</source>
        <translation>Beeinträchtigt</translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation>Nicht erreichbar</translation>
    </message>
    <message>
        <source>Authentication required</source>
        <translation>Anmeldung erforderlich</translation>
    </message>
    <message>
        <source> (stale)</source>
        <translation> (veraltet)</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Last successful poll</source>
        <translation>Letzte erfolgreiche Abfrage</translation>
    </message>
    <message>
        <source>Poll time</source>
        <translation>Abfragedauer</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>Letzter Fehler</translation>
    </message>
</context>
<context>
    <name>strata::models::VolumeTableModel</name>
    <message>
        <source>Data from %1 may be out of date: %2</source>
        <translation>Daten von %1 sind möglicherweise veraltet: %2</translation>
    </message>
    <message>
        <source>the last poll is late</source>
        <translation>die letzte Abfrage ist überfällig</translation>
    </message>
    <message>
        <source>FlexClone of %1</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>SVM</source>
        <translation>SVM</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Style</source>
        <translation>Stil</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>% Used</source>
        <translation>% belegt</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
    <message>
        <source>QoS policy</source>
        <translation>QoS-Richtlinie</translation>
    </message>
    <message>
        <source>Snapshots</source>
        <translation>Snapshots</translation>
    </message>
    <message>
        <source>IOPS</source>
        <translation>IOPS</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>Durchsatz</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
</context>
<context>
    <name>strata::views::ActionDialog</name>
    <message>
        <source>Optional</source>
        <translation>Optional</translation>
    </message>
    <message>
        <source>Snapshot &amp;name:</source>
        <translation>Snapshot-&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Comment:</source>
        <translation>&amp;Kommentar:</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Erstellen</translation>
    </message>
    <message>
        <source>Clone volume &amp;name:</source>
        <translation>&amp;Name des Klon-Volumes:</translation>
    </message>
    <message>
        <source>Clone</source>
        <translation>Klonen</translation>
    </message>
    <message>
        <source>Type &lt;b&gt;%1&lt;/b&gt; to confirm:</source>
        <translation>Zum Bestätigen &lt;b&gt;%1&lt;/b&gt; eingeben:</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>Wiederherstellen</translation>
    </message>
</context>
<context>
    <name>strata::views::ActivityPanel</name>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>Run the failed action again; Strata first checks whether it already took effect.</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::views::CapacityChart</name>
    <message>
        <source>Used</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>No volume selected.</source>
        <translation>Kein Volume ausgewählt.</translation>
    </message>
    <message>
        <source>No capacity history recorded yet.</source>
        <translation>Noch kein Kapazitätsverlauf aufgezeichnet.</translation>
    </message>
</context>
<context>
    <name>strata::views::EventsPage</name>
    <message>
        <source>Filter by event name, message or source</source>
        <translation>Nach Ereignis, Meldung oder Quelle filtern</translation>
    </message>
    <message>
        <source>All severities</source>
        <translation>Alle Schweregrade</translation>
    </message>
    <message>
        <source>Errors and worse</source>
        <translation>Fehler und schlimmer</translation>
    </message>
    <message>
        <source>Notices and worse</source>
        <translation>Hinweise und schlimmer</translation>
    </message>
    <message numerus="yes">
        <source>%Ln event</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln events</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message>
        <source>%1 of %2 events</source>
        <translation>%1 von %2 Ereignissen</translation>
    </message>
</context>
<context>
    <name>strata::views::MainWindow</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>connecting</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>degraded</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>unreachable</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>authentication required</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <source>Volumes</source>
        <translation>Volumes</translation>
    </message>
    <message>
        <source>Volumes of every source (Ctrl+1)</source>
        <translation>Volumes aller Quellen (Strg+1)</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>Quellen</translation>
    </message>
    <message>
        <source>Connected systems and their health (Ctrl+2)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Events of every source, newest first (Ctrl+3)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Activity</source>
        <translation>Aktivität</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Add source…</source>
        <translation>Quelle &amp;hinzufügen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>&amp;Aktualisieren</translation>
    </message>
    <message>
        <source>Poll every source now (F5)</source>
        <translation>Alle Quellen jetzt abfragen (F5)</translation>
    </message>
    <message>
        <source>Refreshing all sources…</source>
        <translation>Alle Quellen werden aktualisiert…</translation>
    </message>
    <message>
        <source>&amp;Volumes</source>
        <translation>&amp;Volumes</translation>
    </message>
    <message>
        <source>&amp;Sources</source>
        <translation>&amp;Quellen</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Ereignisse</translation>
    </message>
    <message>
        <source>&amp;Activity</source>
        <translation>&amp;Aktivität</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;About Strata</source>
        <translation>Ü&amp;ber Strata</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>About Strata</source>
        <translation>Über Strata</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Strata %1&lt;/h3&gt;&lt;p&gt;One console for the storage and the GPUs behind AI work.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No sources configured</source>
        <translation>Keine Quellen konfiguriert</translation>
    </message>
    <message numerus="yes">
        <source>%Ln source: %1</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln sources: %1</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
</context>
<context>
    <name>strata::views::SourceDialog</name>
    <message>
        <source>Add source</source>
        <translation>Quelle hinzufügen</translation>
    </message>
    <message>
        <source>e.g. ontap-prod</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>NetApp ONTAP</source>
        <translation>NetApp ONTAP</translation>
    </message>
    <message>
        <source>https://cluster-mgmt.example.com</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>e.g. admin</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Stored in the system keychain, never in the configuration file.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>System certificate store</source>
        <translation>Zertifikatsspeicher des Systems</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Skip TLS verification (insecure)</source>
        <translation>TLS-Prüfung überspringen (unsicher)</translation>
    </message>
    <message>
        <source>Anyone on the network path can impersonate this system and read its password. Prefer a CA file.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>&amp;Art:</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>&amp;URL:</translation>
    </message>
    <message>
        <source>&amp;Username:</source>
        <translation>&amp;Benutzername:</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>&amp;Passwort:</translation>
    </message>
    <message>
        <source>&amp;CA file:</source>
        <translation>&amp;CA-Datei:</translation>
    </message>
    <message>
        <source>&amp;Inventory poll every:</source>
        <translation>&amp;Inventar abfragen alle:</translation>
    </message>
    <message>
        <source>P&amp;erformance poll every:</source>
        <translation>&amp;Leistung abfragen alle:</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Teste…</translation>
    </message>
    <message>
        <source>Edit source %1</source>
        <translation>Quelle %1 bearbeiten</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>The name keys the stored password; remove and add the source to rename it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No password stored</source>
        <translation>Kein Passwort gespeichert</translation>
    </message>
    <message>
        <source>Leave empty to keep the stored password</source>
        <translation>Leer lassen, um das gespeicherte Passwort zu behalten</translation>
    </message>
    <message>
        <source>Enter a name.</source>
        <translation>Namen eingeben.</translation>
    </message>
    <message>
        <source>The name may only contain letters, digits, '.', '_' and '-'.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>A source named %1 already exists.</source>
        <translation>Eine Quelle namens %1 existiert bereits.</translation>
    </message>
    <message>
        <source>Enter the URL of the cluster management interface.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The URL must look like https://cluster-mgmt.example.com.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Enter a username.</source>
        <translation>Benutzernamen eingeben.</translation>
    </message>
    <message>
        <source>Enter the password.</source>
        <translation>Passwort eingeben.</translation>
    </message>
    <message>
        <source>CA certificate bundle</source>
        <translation>CA-Zertifikatsbündel</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation type="unfinished" />
    </message>
</context>
<context>
    <name>strata::views::SourcesPage</name>
    <message>
        <source>&lt;h3&gt;Add a source to get started&lt;/h3&gt;&lt;p&gt;Strata connects to your ONTAP clusters through their management interface.&lt;br&gt;Click &lt;b&gt;Add…&lt;/b&gt; and enter the cluster's URL and credentials; the password goes to the system keychain.&lt;/p&gt;&lt;p&gt;To look around first, start &lt;tt&gt;strata demo&lt;/tt&gt;.&lt;/p&gt;</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>&amp;Hinzufügen…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>&amp;Bearbeiten…</translation>
    </message>
    <message>
        <source>&amp;Test</source>
        <translation>&amp;Testen</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>&amp;Entfernen…</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>A&amp;ktualisieren</translation>
    </message>
    <message>
        <source>Testing %1…</source>
        <translation>%1 wird getestet…</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: test failed: %2</source>
        <translation>%1: Test fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Remove source</source>
        <translation>Quelle entfernen</translation>
    </message>
    <message>
        <source>Remove source %1?</source>
        <translation>Quelle %1 entfernen?</translation>
    </message>
    <message>
        <source>Strata stops polling it, forgets its data and deletes its stored password. Nothing changes on the system itself.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
</context>
<context>
    <name>strata::views::VolumeDetailPanel</name>
    <message>
        <source>Select a volume to see its capacity history and snapshots.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>SVM:</source>
        <translation>SVM:</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <source>Style:</source>
        <translation>Stil:</translation>
    </message>
    <message>
        <source>Aggregate:</source>
        <translation>Aggregat:</translation>
    </message>
    <message>
        <source>Junction path:</source>
        <translation>Junction-Pfad:</translation>
    </message>
    <message>
        <source>QoS policy:</source>
        <translation>QoS-Richtlinie:</translation>
    </message>
    <message>
        <source>Clone parent:</source>
        <translation>Klon von:</translation>
    </message>
    <message>
        <source>Snapshot reserve:</source>
        <translation>Snapshot-Reserve:</translation>
    </message>
    <message>
        <source>Created:</source>
        <translation>Erstellt:</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>Kapazität</translation>
    </message>
    <message>
        <source>Capacity, last 7 days</source>
        <translation>Kapazität, letzte 7 Tage</translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Create snapshot…</source>
        <translation>Snapshot erstellen…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
    <message>
        <source>Restore…</source>
        <translation>Wiederherstellen…</translation>
    </message>
    <message>
        <source>Clone…</source>
        <translation>Klonen…</translation>
    </message>
    <message>
        <source>Take a new snapshot of this volume</source>
        <translation>Neuen Snapshot dieses Volumes erstellen</translation>
    </message>
    <message>
        <source>Delete the selected snapshot</source>
        <translation>Ausgewählten Snapshot löschen</translation>
    </message>
    <message>
        <source>Revert the whole volume to the selected snapshot (SnapRestore)</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Create a FlexClone volume from the selected snapshot</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Snapshots</source>
        <translation>Snapshots</translation>
    </message>
    <message>
        <source>Loading capacity history…</source>
        <translation>Kapazitätsverlauf wird geladen…</translation>
    </message>
    <message>
        <source>No volume selected.</source>
        <translation>Kein Volume ausgewählt.</translation>
    </message>
    <message numerus="yes">
        <source>%1 and %n more</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message>
        <source>not mounted</source>
        <translation>nicht eingehängt</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>not a clone</source>
        <translation>kein Klon</translation>
    </message>
    <message numerus="yes">
        <source>%1 %, %2 used by %Ln snapshot</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 %, %2 used by %Ln snapshots</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message>
        <source>%1 of %2 used (%3 %)</source>
        <translation>%1 von %2 belegt (%3 %)</translation>
    </message>
    <message>
        <source>%1 available</source>
        <translation>%1 verfügbar</translation>
    </message>
    <message>
        <source>Loading snapshots…</source>
        <translation>Snapshots werden geladen…</translation>
    </message>
    <message>
        <source>Cannot load snapshots: %1</source>
        <translation>Snapshots können nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>This volume has no snapshots.</source>
        <translation>Dieses Volume hat keine Snapshots.</translation>
    </message>
    <message>
        <source>Snapshots (%1)</source>
        <translation>Snapshots (%1)</translation>
    </message>
</context>
<context>
    <name>strata::views::VolumesPage</name>
    <message>
        <source>Filter by name, SVM, source, QoS policy or junction path</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>All states</source>
        <translation>Alle Zustände</translation>
    </message>
    <message>
        <source>Online</source>
        <translation>Online</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Restricted</source>
        <translation>Eingeschränkt</translation>
    </message>
    <message>
        <source>Mixed</source>
        <translation>Gemischt</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message numerus="yes">
        <source>%Ln volume</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln volumes</source>
        <translation type="unfinished">
            <numerusform />
            <numerusform />
        </translation>
    </message>
    <message>
        <source>%1 of %2 volumes</source>
        <translation>%1 von %2 Volumes</translation>
    </message>
    <message>
        <source>All sources</source>
        <translation>Alle Quellen</translation>
    </message>
    <message>
        <source>Create snapshot…</source>
        <translation>Snapshot erstellen…</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>Namen kopieren</translation>
    </message>
    <message>
        <source>Copy junction path</source>
        <translation>Junction-Pfad kopieren</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Aktualisieren</translation>
    </message>
</context>
</TS>