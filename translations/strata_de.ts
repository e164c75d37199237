<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>QObject</name>
    <message>
        <source>an unknown time</source>
        <translation>unbekannter Zeitpunkt</translation>
    </message>
    <message>
        <source>ONTAP job %1: %2</source>
        <translation>ONTAP-Job %1: %2</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; already exists (an earlier attempt succeeded); not created again.</source>
        <translation>Snapshot „%1“ existiert bereits (ein früherer Versuch war erfolgreich); nicht erneut erstellt.</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; was created by an earlier attempt.</source>
        <translation>Snapshot „%1“ wurde von einem früheren Versuch erstellt.</translation>
    </message>
    <message>
        <source>Submitting to ONTAP</source>
        <translation>Wird an ONTAP übermittelt</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; of %2/%3 created.</source>
        <translation>Snapshot „%1“ von %2/%3 erstellt.</translation>
    </message>
    <message>
        <source>Response lost; checking what ONTAP did</source>
        <translation>Antwort verloren; prüfe, was ONTAP ausgeführt hat</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; created (confirmed after the response was lost).</source>
        <translation>Snapshot „%1“ erstellt (nach verlorener Antwort bestätigt).</translation>
    </message>
    <message>
        <source>%1. ONTAP has no snapshot &quot;%2&quot;: it was not applied, so retrying is safe.</source>
        <translation>%1. ONTAP hat keinen Snapshot „%2“: Er wurde nicht angelegt, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; is already gone; nothing to delete.</source>
        <translation>Snapshot „%1“ ist bereits entfernt; nichts zu löschen.</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; of %2/%3 deleted.</source>
        <translation>Snapshot „%1“ von %2/%3 gelöscht.</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; deleted (confirmed after the response was lost).</source>
        <translation>Snapshot „%1“ gelöscht (nach verlorener Antwort bestätigt).</translation>
    </message>
    <message>
        <source>%1. The snapshot still exists, so retrying is safe.</source>
        <translation>%1. Der Snapshot existiert noch, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>%1/%2 was already restored to &quot;%3&quot; by an earlier attempt; not restored again.</source>
        <translation>%1/%2 wurde bereits von einem früheren Versuch auf „%3“ zurückgesetzt; nicht erneut wiederhergestellt.</translation>
    </message>
    <message>
        <source>%1/%2 restored to snapshot &quot;%3&quot;.</source>
        <translation>%1/%2 auf Snapshot „%3“ wiederhergestellt.</translation>
    </message>
    <message>
        <source>%1/%2 restored to &quot;%3&quot; (confirmed after the response was lost).</source>
        <translation>%1/%2 auf „%3“ wiederhergestellt (nach verlorener Antwort bestätigt).</translation>
    </message>
    <message>
        <source>%1. No restore job for this volume was found on ONTAP, so retrying is safe.</source>
        <translation>%1. Auf ONTAP wurde kein Wiederherstellungs-Job für dieses Volume gefunden, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>Volume %1/%2 already exists (an earlier attempt created it); not cloned again.</source>
        <translation>Volume %1/%2 existiert bereits (von einem früheren Versuch erstellt); nicht erneut geklont.</translation>
    </message>
    <message>
        <source>FlexClone %1/%2 was created by an earlier attempt.</source>
        <translation>FlexClone %1/%2 wurde von einem früheren Versuch erstellt.</translation>
    </message>
    <message>
        <source>FlexClone %1/%2 created from %3@%4.</source>
        <translation>FlexClone %1/%2 aus %3@%4 erstellt.</translation>
    </message>
    <message>
        <source>FlexClone %1/%2 created (confirmed after the response was lost).</source>
        <translation>FlexClone %1/%2 erstellt (nach verlorener Antwort bestätigt).</translation>
    </message>
    <message>
        <source>%1. ONTAP has no volume %2/%3, so retrying is safe.</source>
        <translation>%1. ONTAP hat kein Volume %2/%3, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>Connected to %1 (ONTAP %2.%3.%4) in %5 ms.</source>
        <translation>Verbunden mit %1 (ONTAP %2.%3.%4) in %5 ms.</translation>
    </message>
    <message>
        <source>Not connected to the cluster.</source>
        <translation>Nicht mit dem Cluster verbunden.</translation>
    </message>
    <message>
        <source>Job %1 already exists (an earlier attempt created it); not submitted again.</source>
        <translation>Job %1 existiert bereits (von einem früheren Versuch erstellt); nicht erneut übermittelt.</translation>
    </message>
    <message>
        <source>Creating Job %1 in %2</source>
        <translation>Job %1 wird in %2 erstellt</translation>
    </message>
    <message>
        <source>Job %1 submitted (confirmed after the response was lost).</source>
        <translation>Job %1 übermittelt (nach verlorener Antwort bestätigt).</translation>
    </message>
    <message>
        <source>A job named %1 already exists in %2.</source>
        <translation>In %2 existiert bereits ein Job namens %1.</translation>
    </message>
    <message>
        <source>Job %1 submitted to project %2.</source>
        <translation>Job %1 an Projekt %2 übermittelt.</translation>
    </message>
    <message>
        <source>Deleting %1</source>
        <translation>%1 wird gelöscht</translation>
    </message>
    <message>
        <source>%1 of %2 job(s) deleted; %3</source>
        <translation>%1 von %2 Job(s) gelöscht; %3</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) deleted.</source>
        <translation>
            <numerusform>%n Job gelöscht.</numerusform>
            <numerusform>%n Jobs gelöscht.</numerusform>
        </translation>
    </message>
    <message>
        <source>Namespace %1 has no GPU ResourceQuota.</source>
        <translation>Namespace %1 hat kein GPU-ResourceQuota.</translation>
    </message>
    <message>
        <source>Project %1 now guarantees %2 GPU(s).</source>
        <translation>Projekt %1 garantiert jetzt %2 GPU(s).</translation>
    </message>
    <message>
        <source>A Kubernetes cluster cannot run this action.</source>
        <translation>Ein Kubernetes-Cluster kann diese Aktion nicht ausführen.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source> at %1 (context %2)</source>
        <translation> unter %1 (Kontext %2)</translation>
    </message>
    <message>
        <source>Connected to %1%2 in %3 ms; %4.</source>
        <translation>Verbunden mit %1%2 in %3 ms; %4.</translation>
    </message>
    <message>
        <source>Prometheus %1 reachable at %2.</source>
        <translation>Prometheus %1 erreichbar unter %2.</translation>
    </message>
    <message>
        <source>Prometheus at %1 is unreachable: %2</source>
        <translation>Prometheus unter %1 ist nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>%1 defines no contexts.</source>
        <translation>%1 definiert keine Kontexte.</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Volume %1 is not known to %2 (yet).</source>
        <translation>Volume %1 ist %2 (noch) nicht bekannt.</translation>
    </message>
    <message numerus="yes">
        <source>%n AKS cluster(s)</source>
        <translation>
            <numerusform>%n AKS-Cluster</numerusform>
            <numerusform>%n AKS-Cluster</numerusform>
        </translation>
    </message>
    <message>
        <source>AKS clusters not readable (%1)</source>
        <translation>AKS-Cluster nicht lesbar (%1)</translation>
    </message>
    <message>
        <source>Connected to subscription %1 (%2) in %3 ms: %4, %5.</source>
        <translation>Verbunden mit Abonnement %1 (%2) in %3 ms: %4, %5.</translation>
    </message>
    <message numerus="yes">
        <source>%n NetApp account(s)</source>
        <translation>
            <numerusform>%n NetApp-Konto</numerusform>
            <numerusform>%n NetApp-Konten</numerusform>
        </translation>
    </message>
    <message>
        <source>Pool %1 is %2, not %3.</source>
        <translation>Pool %1 ist %2, nicht %3.</translation>
    </message>
    <message>
        <source>Account %1 has no capacity pool named %2.</source>
        <translation>Konto %1 hat keinen Kapazitätspool namens %2.</translation>
    </message>
    <message>
        <source>No %1 capacity pool in account %2 has %3 free; create one (e.g. pool-%4 of %5) or free space in one first.</source>
        <translation>Kein %1-Kapazitätspool im Konto %2 hat %3 frei; zuerst einen erstellen (z. B. pool-%4 mit %5) oder in einem Pool Platz freigeben.</translation>
    </message>
    <message>
        <source>Pool %1 exists and cannot take %2; name the new pool.</source>
        <translation>Pool %1 existiert und kann %2 nicht aufnehmen; einen Namen für den neuen Pool angeben.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid pool name (letters, digits, _ and -; at most 64).</source>
        <translation>„%1“ ist kein gültiger Pool-Name (Buchstaben, Ziffern, _ und -; höchstens 64).</translation>
    </message>
    <message>
        <source>A capacity pool is sized in whole TiB (at least 1 TiB); %1 is not.</source>
        <translation>Die Größe eines Kapazitätspools wird in ganzen TiB angegeben (mindestens 1 TiB); %1 ist das nicht.</translation>
    </message>
    <message>
        <source>%1: Azure reports %2</source>
        <translation>%1: Azure meldet %2</translation>
    </message>
    <message>
        <source>Volume %1 is not known to %2.</source>
        <translation>Volume %1 ist %2 nicht bekannt.</translation>
    </message>
    <message>
        <source>Submitting to Azure</source>
        <translation>Wird an Azure übermittelt</translation>
    </message>
    <message>
        <source>Snapshot</source>
        <translation>Snapshot</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; of %2 created.</source>
        <translation>Snapshot „%1“ von %2 erstellt.</translation>
    </message>
    <message>
        <source>%1. Azure has no snapshot &quot;%2&quot;, so retrying is safe.</source>
        <translation>%1. Azure hat keinen Snapshot „%2“, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>Snapshot deletion</source>
        <translation>Snapshot-Löschung</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; of %2 deleted.</source>
        <translation>Snapshot „%1“ von %2 gelöscht.</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>%1 reverted to snapshot &quot;%2&quot;.</source>
        <translation>%1 auf Snapshot „%2“ zurückgesetzt.</translation>
    </message>
    <message>
        <source>%1. Azure accepted the revert; check the volume&apos;s contents before reverting again.</source>
        <translation>%1. Azure hat das Zurücksetzen angenommen; vor einem erneuten Zurücksetzen den Inhalt des Volumes prüfen.</translation>
    </message>
    <message>
        <source>No target pool.</source>
        <translation>Kein Ziel-Pool.</translation>
    </message>
    <message>
        <source>%1 no longer exists in Azure (deleted elsewhere).</source>
        <translation>%1 existiert in Azure nicht mehr (anderweitig gelöscht).</translation>
    </message>
    <message>
        <source>%1 is already in pool %2 (%3); nothing to move.</source>
        <translation>%1 befindet sich bereits in Pool %2 (%3); nichts zu verschieben.</translation>
    </message>
    <message>
        <source>Creating pool %1</source>
        <translation>Pool %1 wird erstellt</translation>
    </message>
    <message>
        <source>Pool creation</source>
        <translation>Pool-Erstellung</translation>
    </message>
    <message>
        <source>Creating pool %1 failed: %2</source>
        <translation>Erstellen von Pool %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Pool %1 exists as %2, not %3.</source>
        <translation>Pool %1 existiert als %2, nicht als %3.</translation>
    </message>
    <message>
        <source>Moving %1 to pool %2</source>
        <translation>%1 wird in Pool %2 verschoben</translation>
    </message>
    <message>
        <source>Pool change</source>
        <translation>Pool-Wechsel</translation>
    </message>
    <message>
        <source>%1 moved to pool %2 (%3) (confirmed after: %4).</source>
        <translation>%1 in Pool %2 (%3) verschoben (bestätigt nach: %4).</translation>
    </message>
    <message>
        <source>%1: the volume was deleted during the change.</source>
        <translation>%1: Das Volume wurde während der Änderung gelöscht.</translation>
    </message>
    <message>
        <source>%1. %2 is still in pool %3, so retrying is safe.</source>
        <translation>%1. %2 befindet sich noch in Pool %3, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>; throughput cap %1 → %2</source>
        <translation>; Durchsatzobergrenze %1 → %2</translation>
    </message>
    <message>
        <source>%1 moved from pool %2 (%3) to pool %4 (%5)%6.</source>
        <translation>%1 von Pool %2 (%3) in Pool %4 (%5) verschoben%6.</translation>
    </message>
    <message>
        <source>no QoS policy</source>
        <translation>keine QoS-Richtlinie</translation>
    </message>
    <message>
        <source>QoS policy &quot;%1&quot;</source>
        <translation>QoS-Richtlinie „%1“</translation>
    </message>
    <message>
        <source>%1 already has %2; nothing to change.</source>
        <translation>%1 hat bereits %2; nichts zu ändern.</translation>
    </message>
    <message>
        <source>%1 now has %2.</source>
        <translation>%1 hat jetzt %2.</translation>
    </message>
    <message>
        <source>%1 now has %2 (confirmed after the response was lost).</source>
        <translation>%1 hat jetzt %2 (nach verlorener Antwort bestätigt).</translation>
    </message>
    <message>
        <source>%1. The volume does not have %2, so retrying is safe.</source>
        <translation>%1. Das Volume hat %2 noch nicht, ein erneuter Versuch ist daher sicher.</translation>
    </message>
    <message>
        <source>1 Dataset</source>
        <translation>1 Datensatz</translation>
    </message>
    <message>
        <source>%1 Datasets</source>
        <translation>%1 Datensätze</translation>
    </message>
    <message>
        <source>%1 NFS Connected</source>
        <translation>%1 über NFS verbunden</translation>
    </message>
    <message>
        <source>%1 / %2 Used by cached commits</source>
        <translation>%1 / %2 durch Commits im Cache belegt</translation>
    </message>
    <message>
        <source>cache state in %1: %2</source>
        <translation>Cache-Zustand in %1: %2</translation>
    </message>
    <message>
        <source>cannot update %1: %2</source>
        <translation>%1 kann nicht aktualisiert werden: %2</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>Starting the evictor on %1</source>
        <translation>Verdrängungs-Job wird auf %1 gestartet</translation>
    </message>
    <message>
        <source>%1@%2 was already being cleared from %3.</source>
        <translation>Das Entfernen von %1@%2 aus %3 lief bereits.</translation>
    </message>
    <message>
        <source>Clearing %1@%2 from %3 (Job %4).</source>
        <translation>%1@%2 wird aus %3 entfernt (Job %4).</translation>
    </message>
    <message>
        <source>This build has no cache loader script (packaging/cache-loader/loader.py).</source>
        <translation>Dieser Build enthält kein Cache-Loader-Skript (packaging/cache-loader/loader.py).</translation>
    </message>
    <message>
        <source>Making room: clearing %1@%2</source>
        <translation>Platz schaffen: %1@%2 wird entfernt</translation>
    </message>
    <message>
        <source>Installing the loader script in %1</source>
        <translation>Loader-Skript wird in %1 installiert</translation>
    </message>
    <message>
        <source>cannot create ConfigMap strata-cache-loader: %1</source>
        <translation>ConfigMap strata-cache-loader kann nicht erstellt werden: %1</translation>
    </message>
    <message>
        <source>cannot update ConfigMap strata-cache-loader: %1</source>
        <translation>ConfigMap strata-cache-loader kann nicht aktualisiert werden: %1</translation>
    </message>
    <message>
        <source>Recording the request in %1</source>
        <translation>Anforderung wird in %1 festgehalten</translation>
    </message>
    <message>
        <source>%1@%2 is already on %3; not loaded again.</source>
        <translation>%1@%2 liegt bereits auf %3; nicht erneut geladen.</translation>
    </message>
    <message>
        <source>Loading %1@%2 onto %3: Job %4/%5 copies %6.</source>
        <translation>%1@%2 wird auf %3 geladen: Job %4/%5 kopiert %6.</translation>
    </message>
    <message>
        <source>The S3 secret is not known yet.</source>
        <translation>Der geheime S3-Schlüssel ist noch nicht bekannt.</translation>
    </message>
    <message>
        <source>S3: %1</source>
        <translation>S3: %1</translation>
    </message>
    <message>
        <source>1 tenant</source>
        <translation>1 Mandant</translation>
    </message>
    <message>
        <source>%1 tenants</source>
        <translation>%1 Mandanten</translation>
    </message>
    <message>
        <source>Connected to grid %1, but S3 at %2 failed: %3</source>
        <translation>Mit Grid %1 verbunden, aber S3 unter %2 ist fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>1 dataset</source>
        <translation>1 Datensatz</translation>
    </message>
    <message>
        <source>%1 datasets</source>
        <translation>%1 Datensätze</translation>
    </message>
    <message>
        <source>Connected to grid %1 (StorageGRID %2) in %3 ms: %4.</source>
        <translation>Mit Grid %1 (StorageGRID %2) in %3 ms verbunden: %4.</translation>
    </message>
    <message>
        <source>%1 cannot run on StorageGRID source %2.</source>
        <translation>%1 kann nicht auf der StorageGRID-Quelle %2 ausgeführt werden.</translation>
    </message>
    <message>
        <source>The S3 side of %1 is not connected (no S3 secret).</source>
        <translation>Die S3-Seite von %1 ist nicht verbunden (kein geheimer S3-Schlüssel).</translation>
    </message>
    <message>
        <source>Dataset %1 is not known to %2.</source>
        <translation>Datensatz %1 ist %2 nicht bekannt.</translation>
    </message>
    <message>
        <source>Commit %1 of %2 already exists (an earlier attempt wrote it); not written again.</source>
        <translation>Commit %1 von %2 existiert bereits (von einem früheren Versuch geschrieben); nicht erneut geschrieben.</translation>
    </message>
    <message>
        <source>Listing %1/%2</source>
        <translation>%1/%2 wird aufgelistet</translation>
    </message>
    <message>
        <source>Writing manifest %1 (%2 objects)</source>
        <translation>Manifest %1 wird geschrieben (%2 Objekte)</translation>
    </message>
    <message>
        <source>Commit %1 of %2: %3 objects, %4.</source>
        <translation>Commit %1 von %2: %3 Objekte, %4.</translation>
    </message>
    <message>
        <source>KAI queues found, but %1</source>
        <translation>KAI-Queues gefunden, aber %1</translation>
    </message>
    <message>
        <source>KAI queues found (podgroups in %1)</source>
        <translation>KAI-Queues gefunden (PodGroups in %1)</translation>
    </message>
    <message>
        <source>Following the Azure operation after the restart</source>
        <translation>Verfolge den Azure-Vorgang nach dem Neustart</translation>
    </message>
    <message>
        <source>Pool change: Azure reports %1</source>
        <translation>Poolwechsel: Azure meldet %1</translation>
    </message>
    <message>
        <source>still %1 after %2 s</source>
        <translation>nach %2 s noch %1</translation>
    </message>
    <message>
        <source>%1 moved to pool %2 (%3).</source>
        <translation>%1 ist in Pool %2 umgezogen (%3).</translation>
    </message>
    <message>
        <source>The pool change of %1 %2 in Azure: %3</source>
        <translation>Der Poolwechsel von %1 %2 in Azure: %3</translation>
    </message>
    <message>
        <source>Strata stopped while the pool change of %1 ran and Azure cannot be asked now (%2); it was not sent again. Check the volume before retrying.</source>
        <translation>Strata wurde während des Poolwechsels von %1 beendet, und Azure ist gerade nicht erreichbar (%2); er wurde nicht erneut gesendet. Prüfen Sie das Volume, bevor Sie es erneut versuchen.</translation>
    </message>
    <message>
        <source>Strata stopped before the pool change of %1 reached Azure (it is still in pool %2); it was not sent again. Retry it if it is still wanted.</source>
        <translation>Strata wurde beendet, bevor der Poolwechsel von %1 Azure erreichte (es ist noch in Pool %2); er wurde nicht erneut gesendet. Wiederholen Sie ihn, falls er noch gewünscht ist.</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>nicht gesendet</translation>
    </message>
    <message>
        <source>Strata stopped while this ran and cache target %1 is not configured now; it was not repeated.</source>
        <translation>Strata wurde währenddessen beendet, und das Cache-Ziel %1 ist nicht mehr konfiguriert; es wurde nicht wiederholt.</translation>
    </message>
    <message>
        <source>Loading %1 onto %2: Job %3/%4 was created before the restart.</source>
        <translation>Laden von %1 auf %2: Job %3/%4 wurde vor dem Neustart angelegt.</translation>
    </message>
    <message>
        <source>Strata stopped while this ran and the cluster cannot be asked now (%1); it was not repeated.</source>
        <translation>Strata wurde währenddessen beendet, und der Cluster ist gerade nicht erreichbar (%1); es wurde nicht wiederholt.</translation>
    </message>
    <message>
        <source>Strata stopped before the loader Job %1/%2 was created; it was not sent again. Retry the load if it is still wanted.</source>
        <translation>Strata wurde beendet, bevor der Lade-Job %1/%2 angelegt wurde; er wurde nicht erneut gesendet. Wiederholen Sie das Laden, falls es noch gewünscht ist.</translation>
    </message>
    <message>
        <source>Following ONTAP job %1 after the restart</source>
        <translation>Verfolge ONTAP-Job %1 nach dem Neustart</translation>
    </message>
    <message>
        <source>Looking for the ONTAP job of this action</source>
        <translation>Suche den ONTAP-Job dieser Aktion</translation>
    </message>
    <message>
        <source>Strata stopped while %1 ran and ONTAP cannot be asked now; it was not sent again. Check the volume before retrying.</source>
        <translation>Strata wurde während %1 beendet, und ONTAP ist gerade nicht erreichbar; es wurde nicht erneut gesendet. Prüfen Sie das Volume, bevor Sie es erneut versuchen.</translation>
    </message>
    <message>
        <source>Strata stopped before %1 reached ONTAP (ONTAP has no job for it and the change is not there); it was not sent again. Retry it if it is still wanted.</source>
        <translation>Strata wurde beendet, bevor %1 ONTAP erreichte (ONTAP hat keinen Job dafür, und die Änderung ist nicht vorhanden); es wurde nicht erneut gesendet. Wiederholen Sie es, falls es noch gewünscht ist.</translation>
    </message>
    <message>
        <source>the creation of snapshot &quot;%1&quot;</source>
        <translation>das Anlegen des Snapshots &quot;%1&quot;</translation>
    </message>
    <message>
        <source>the change of %1 to %2</source>
        <translation>die Änderung von %1 auf %2</translation>
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
        <translation>Die eingebaute simulierte Umgebung statt einer Konfigurationsdatei verwenden.</translation>
    </message>
    <message>
        <source>Only this source (repeatable).</source>
        <translation>Nur diese Quelle (wiederholbar).</translation>
    </message>
    <message>
        <source>Only this volume (name or id; repeatable).</source>
        <translation>Nur dieses Volume (Name oder ID; wiederholbar).</translation>
    </message>
    <message>
        <source>Output format: table, json or csv.</source>
        <translation>Ausgabeformat: table, json oder csv.</translation>
    </message>
    <message>
        <source>unknown output format &quot;%1&quot; (table, json, csv)</source>
        <translation>unbekanntes Ausgabeformat „%1“ (table, json, csv)</translation>
    </message>
    <message>
        <source>--timeout needs a positive number of seconds</source>
        <translation>--timeout erfordert eine positive Anzahl Sekunden</translation>
    </message>
    <message>
        <source>cannot start the demo estate: %1</source>
        <translation>die Demo-Umgebung kann nicht starten: %1</translation>
    </message>
    <message>
        <source>no source named &quot;%1&quot; is configured</source>
        <translation>keine Quelle namens „%1“ konfiguriert</translation>
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
        <source>Only this project (projects, jobs, pvcs; repeatable).</source>
        <translation>Nur dieses Projekt (projects, jobs, pvcs; wiederholbar).</translation>
    </message>
    <message>
        <source>no project named %1</source>
        <translation>kein Projekt namens %1</translation>
    </message>
    <message>
        <source>%1 matches several volumes (%2): name one with --source or svm/name</source>
        <translation>%1 passt zu mehreren Volumes (%2): eines mit --source oder svm/name angeben</translation>
    </message>
    <message>
        <source>%1 is not a service level of %2; choose one of: %3</source>
        <translation>%1 ist kein Servicelevel von %2; mögliche Werte: %3</translation>
    </message>
    <message>
        <source>--at needs an ISO 8601 time (2026-11-23T08:00, 2026-11-23T08:00Z) or +30m, +2h, +1d</source>
        <translation>--at erfordert eine Zeit nach ISO 8601 (2026-11-23T08:00, 2026-11-23T08:00Z) oder +30m, +2h, +1d</translation>
    </message>
    <message>
        <source>--window needs START..END with END after START</source>
        <translation>--window erfordert START..END mit END nach START</translation>
    </message>
    <message>
        <source>that time has passed; without --repeat a schedule must lie ahead</source>
        <translation>dieser Zeitpunkt ist bereits vorbei; ohne --repeat muss ein Zeitplan in der Zukunft liegen</translation>
    </message>
    <message>
        <source>the schedule could not be saved in the history store</source>
        <translation>der Zeitplan konnte nicht im Verlaufsspeicher gespeichert werden</translation>
    </message>
    <message>
        <source>Upcoming:</source>
        <translation>Anstehend:</translation>
    </message>
    <message>
        <source>Dry run: nothing was scheduled.</source>
        <translation>Probelauf: Es wurde nichts eingeplant.</translation>
    </message>
    <message>
        <source>Scheduled as #%1. It runs in the Strata desktop app or strata-server that has source %2; the preview is checked again when it runs.</source>
        <translation>Als #%1 eingeplant. Die Änderung läuft in der Strata-Desktop-App oder im strata-server mit der Quelle %2; die Vorschau wird bei der Ausführung erneut geprüft.</translation>
    </message>
    <message>
        <source>Dry run: nothing was changed.</source>
        <translation>Probelauf: Es wurde nichts geändert.</translation>
    </message>
    <message>
        <source>still running after %1 s; see the audit log</source>
        <translation>läuft nach %1 s noch; siehe Audit-Log</translation>
    </message>
    <message>
        <source>Done: %1</source>
        <translation>Erledigt: %1</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>set service-level: the new level (ANF Standard, Premium, Ultra; ONTAP a QoS policy name or none).</source>
        <translation>set service-level: das neue Servicelevel (ANF: Standard, Premium, Ultra; ONTAP: Name einer QoS-Richtlinie oder none).</translation>
    </message>
    <message>
        <source>set service-level: schedule it at this time (ISO 8601, or +30m, +2h, +1d).</source>
        <translation>set service-level: die Änderung zu diesem Zeitpunkt einplanen (ISO 8601 oder +30m, +2h, +1d).</translation>
    </message>
    <message>
        <source>set service-level: raise for a window START..END, then return to the current level (or --then).</source>
        <translation>set service-level: für ein Zeitfenster START..END anheben, danach zum aktuellen Servicelevel (oder zu --then) zurückkehren.</translation>
    </message>
    <message>
        <source>set service-level --window: the level after the window.</source>
        <translation>set service-level --window: das Servicelevel nach dem Zeitfenster.</translation>
    </message>
    <message>
        <source>set service-level --at/--window: once, daily, weekdays or weekly.</source>
        <translation>set service-level --at/--window: once, daily, weekdays oder weekly.</translation>
    </message>
    <message>
        <source>set service-level (ANF): the capacity pool to move to.</source>
        <translation>set service-level (ANF): der Kapazitätspool, in den verschoben wird.</translation>
    </message>
    <message>
        <source>set service-level (ANF): create the target pool when none has room.</source>
        <translation>set service-level (ANF): den Ziel-Pool erstellen, wenn keiner Platz hat.</translation>
    </message>
    <message>
        <source>set service-level --create-pool: its size in TiB (default: the preview&apos;s).</source>
        <translation>set service-level --create-pool: seine Größe in TiB (Standard: die aus der Vorschau).</translation>
    </message>
    <message>
        <source>use --at or --window (not both), and --repeat once, daily, weekdays or weekly</source>
        <translation>--at oder --window verwenden (nicht beides) und --repeat once, daily, weekdays oder weekly</translation>
    </message>
    <message>
        <source>history store unavailable: %1</source>
        <translation>Verlaufsspeicher nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>timed out reading the schedules</source>
        <translation>Zeitüberschreitung beim Lesen der Zeitpläne</translation>
    </message>
    <message>
        <source>set, commit, cache, evict: show the preview and change nothing.</source>
        <translation>set, commit, cache, evict: die Vorschau anzeigen und nichts ändern.</translation>
    </message>
    <message>
        <source>commit: the commit message.</source>
        <translation>commit: die Commit-Nachricht.</translation>
    </message>
    <message>
        <source>get commits: only this dataset (repeatable).</source>
        <translation>get commits: nur dieser Datensatz (wiederholbar).</translation>
    </message>
    <message>
        <source>get, set, commit, cache, evict or diff</source>
        <translation>get, set, commit, cache, evict oder diff</translation>
    </message>
    <message>
        <source>--pool-size needs a whole number of TiB, at least 1</source>
        <translation>--pool-size erfordert eine ganze Zahl von TiB, mindestens 1</translation>
    </message>
    <message>
        <source>no dataset named &quot;%1&quot; (see `get datasets`)</source>
        <translation>kein Datensatz namens „%1“ (siehe `get datasets`)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; names several datasets: %2</source>
        <translation>„%1“ bezeichnet mehrere Datensätze: %2</translation>
    </message>
    <message>
        <source>dataset %1 has no commit yet (create one with `commit %1 -m MESSAGE`)</source>
        <translation>Datensatz %1 hat noch keinen Commit (einen mit `commit %1 -m MESSAGE` erstellen)</translation>
    </message>
    <message>
        <source>no commit or dataset matches &quot;%1&quot; (see `get commits`)</source>
        <translation>kein Commit und kein Datensatz passt zu „%1“ (siehe `get commits`)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; matches %2 commits; give more digits</source>
        <translation>„%1“ passt zu %2 Commits; mehr Ziffern angeben</translation>
    </message>
    <message>
        <source>%1 and %2 belong to different datasets (%3, %4)</source>
        <translation>%1 und %2 gehören zu verschiedenen Datensätzen (%3, %4)</translation>
    </message>
    <message>
        <source>%1 is not an object-store dataset; diff compares manifests</source>
        <translation>%1 ist kein Objektspeicher-Datensatz; diff vergleicht Manifeste</translation>
    </message>
    <message>
        <source>timed out reading the manifests</source>
        <translation>Zeitüberschreitung beim Lesen der Manifeste</translation>
    </message>
    <message>
        <source>%1: %2 -&gt; %3</source>
        <translation>%1: %2 -&gt; %3</translation>
    </message>
    <message>
        <source>commit %1 is not cached on any target</source>
        <translation>Commit %1 ist auf keinem Ziel im Cache</translation>
    </message>
    <message>
        <source>no cache target is configured (&quot;cache_targets&quot; in the config)</source>
        <translation>kein Cache-Ziel konfiguriert („cache_targets“ in der Konfiguration)</translation>
    </message>
    <message>
        <source>choose a target with --target: %1</source>
        <translation>ein Ziel mit --target wählen: %1</translation>
    </message>
    <message>
        <source>no cache target named &quot;%1&quot; (configured: %2)</source>
        <translation>kein Cache-Ziel namens „%1“ (konfiguriert: %2)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>cache, evict, get caches: the cache target (default: the only one); cache of an ONTAP snapshot commit: the FlexClone&apos;s name (default: &lt;volume&gt;_&lt;snapshot&gt;).</source>
        <translation>cache, evict, get caches: das Cache-Ziel (Standard: das einzige); cache eines ONTAP-Snapshot-Commits: der Name des FlexClones (Standard: &lt;Volume&gt;_&lt;Snapshot&gt;).</translation>
    </message>
    <message>
        <source>%1 is snapshot &quot;%2&quot; of ONTAP volume %3: its FlexClones are volumes of %4</source>
        <translation>%1 ist Snapshot „%2“ des ONTAP-Volumes %3: seine FlexClones sind Volumes von %4</translation>
    </message>
    <message>
        <source>unknown --system &quot;%1&quot; (%2)</source>
        <translation>unbekanntes --system „%1“ (%2)</translation>
    </message>
    <message>
        <source>unknown --severity &quot;%1&quot; (critical, error, warning, info)</source>
        <translation>unbekannte --severity „%1“ (critical, error, warning, info)</translation>
    </message>
    <message>
        <source>--%1 needs an ISO 8601 time (2026-11-22T10:00:00Z) or a duration ago like 30m, 2h, 7d, not &quot;%2&quot;</source>
        <translation>--%1 erwartet eine ISO-8601-Zeit (2026-11-22T10:00:00Z) oder eine Dauer in der Vergangenheit wie 30m, 2h, 7d, nicht „%2“</translation>
    </message>
    <message>
        <source>get events: only this system: ontap, storagegrid, azure, kubernetes or strata (repeatable).</source>
        <translation>get events: nur dieses System: ontap, storagegrid, azure, kubernetes oder strata (wiederholbar).</translation>
    </message>
    <message>
        <source>get events: this severity and worse: critical, error, warning or info.</source>
        <translation>get events: dieser Schweregrad und schlimmer: critical, error, warning oder info.</translation>
    </message>
    <message>
        <source>get events: from this time (ISO 8601, or 30m, 2h, 7d ago).</source>
        <translation>get events: ab diesem Zeitpunkt (ISO 8601 oder vor 30m, 2h, 7d).</translation>
    </message>
    <message>
        <source>get events: up to this time (ISO 8601, or 30m, 2h, 7d ago).</source>
        <translation>get events: bis zu diesem Zeitpunkt (ISO 8601 oder vor 30m, 2h, 7d).</translation>
    </message>
    <message>
        <source>get events: only entries whose title, message, object or source contain this text.</source>
        <translation>get events: nur Einträge, deren Titel, Nachricht, Objekt oder Quelle diesen Text enthält.</translation>
    </message>
    <message>
        <source>get events: only this job (&lt;namespace&gt;/&lt;name&gt; or name; repeatable).</source>
        <translation>get events: nur dieser Job (&lt;namespace&gt;/&lt;name&gt; oder Name; wiederholbar).</translation>
    </message>
    <message>
        <source>Answer from this support bundle, offline and read-only.</source>
        <translation>Aus diesem Support-Bundle antworten, offline und schreibgeschützt.</translation>
    </message>
    <message>
        <source>bundle export: hours of history to include (default 24).</source>
        <translation>bundle export: einzuschließender Verlauf in Stunden (Standard 24).</translation>
    </message>
    <message>
        <source>--hours needs a whole number, at least 1</source>
        <translation>--hours erwartet eine ganze Zahl, mindestens 1</translation>
    </message>
    <message>
        <source>a support bundle is read-only: only get answers from it</source>
        <translation>ein Support-Bundle ist schreibgeschützt: nur get beantwortet daraus</translation>
    </message>
    <message>
        <source>Give up after this many seconds: get, why and bundle export wait this long for the sources, then print what arrived and name the rest (default %1); a change is followed this long (default 120).</source>
        <translation>Nach so vielen Sekunden aufgeben: get, why und bundle export warten so lange auf die Quellen, geben dann aus, was angekommen ist, und nennen den Rest (Standard %1); eine Änderung wird so lange verfolgt (Standard 120).</translation>
    </message>
    <message>
        <source>unknown command &quot;%1&quot;; commands: %2 (see %3 --help)</source>
        <translation>unbekannter Befehl „%1“; Befehle: %2 (siehe %3 --help)</translation>
    </message>
    <message>
        <source>unknown resource &quot;%1&quot;; get lists: %2</source>
        <translation>unbekannte Ressource „%1“; get listet: %2</translation>
    </message>
    <message>
        <source>this program was built without it</source>
        <translation>dieses Programm wurde ohne sie gebaut</translation>
    </message>
    <message>
        <source>no sources configured yet (%1 does not exist). Add them on the desktop app&apos;s Sources page or write that file (see the README), pass --config PATH, or try the simulated estate: %2 --demo %3</source>
        <translation>noch keine Quellen konfiguriert (%1 existiert nicht). Quellen auf der Seite „Quellen“ der Desktop-App hinzufügen oder diese Datei schreiben (siehe README), --config PFAD angeben oder die simulierte Umgebung ausprobieren: %2 --demo %3</translation>
    </message>
    <message>
        <source>no complete answer within %1 s (--timeout)</source>
        <translation>keine vollständige Antwort innerhalb von %1 s (--timeout)</translation>
    </message>
    <message>
        <source>%1: no snapshot listing within %2 s (--timeout)</source>
        <translation>%1: keine Snapshot-Liste innerhalb von %2 s (--timeout)</translation>
    </message>
    <message>
        <source>a source did not stop within %1 s after the answer; exiting</source>
        <translation>eine Quelle hat %1 s nach der Antwort nicht angehalten; Programm wird beendet</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] bundle export FILE [--hours N]
bundle diff A B [-o table|json]
--bundle FILE get RESOURCE [...]</source>
        <translation>[--config PATH | --demo] bundle export FILE [--hours N]
bundle diff A B [-o table|json]
--bundle FILE get RESOURCE [...]</translation>
    </message>
    <message>
        <source>get: sources, volumes, snapshots, clusters, nodes, projects, jobs, pvcs, service-levels, pools, aks, schedules, datasets, commits, caches, cache-targets, grids, tenants, buckets, alerts, events, systems, attention; set: service-level VOLUME; commit DATASET; cache|evict COMMIT; diff FROM TO</source>
        <translation>get: sources, volumes, snapshots, clusters, nodes, projects, jobs, pvcs, service-levels, pools, aks, schedules, datasets, commits, caches, cache-targets, grids, tenants, buckets, alerts, events, systems, attention; set: service-level VOLUME; commit DATASET; cache|evict COMMIT; diff FROM TO</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] commit DATASET -m MESSAGE [--dry-run] [-o json]</source>
        <translation>[--config PATH | --demo] commit DATASET -m MESSAGE [--dry-run] [-o json]</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] diff FROM TO [-o table|json|csv]</source>
        <translation>[--config PATH | --demo] diff FROM TO [-o table|json|csv]</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] cache|evict COMMIT [--target NAME] [--dry-run] [-o json]</source>
        <translation>[--config PATH | --demo] cache|evict COMMIT [--target NAME] [--dry-run] [-o json]</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] set service-level VOLUME --to LEVEL [--at TIME | --window START..END [--then LEVEL]] [--repeat once|daily|weekdays|weekly] [--pool NAME] [--create-pool [--pool-size TIB]] [--dry-run] [-o json]</source>
        <translation>[--config PATH | --demo] set service-level VOLUME --to LEVEL [--at TIME | --window START..END [--then LEVEL]] [--repeat once|daily|weekdays|weekly] [--pool NAME] [--create-pool [--pool-size TIB]] [--dry-run] [-o json]</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] why JOB [--source NAME] [-o table|json]</source>
        <translation>[--config PATH | --demo] why JOB [--source NAME] [-o table|json]</translation>
    </message>
    <message>
        <source>what-if quota: this project&apos;s over-quota weight (PROJECT=W, repeatable); spare GPUs are then split by weight as KAI does, not by quota.</source>
        <translation>what-if quota: Über-Kontingent-Gewicht dieses Projekts (PROJEKT=W, wiederholbar); freie GPUs werden dann wie bei KAI nach Gewicht statt nach Kontingent verteilt.</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] what-if quota PROJECT=GPUS... [--over-quota-weight PROJECT=W]... [--source NAME] [-o table|json]</source>
        <translation>[--config PFAD | --demo] what-if quota PROJEKT=GPUS... [--over-quota-weight PROJEKT=W]... [--source NAME] [-o table|json]</translation>
    </message>
    <message>
        <source>get chargeback: the calendar month in UTC, YYYY-MM (default: this month).</source>
        <translation>get chargeback: der Kalendermonat in UTC, JJJJ-MM (Standard: dieser Monat).</translation>
    </message>
    <message>
        <source>a chargeback reads the history store, which a bundle does not carry</source>
        <translation>eine Kostenverrechnung liest den Verlaufsspeicher, den ein Bundle nicht enthält</translation>
    </message>
    <message>
        <source>timed out computing the chargeback</source>
        <translation>Zeitüberschreitung beim Berechnen der Kostenverrechnung</translation>
    </message>
    <message>
        <source>CHARGEBACK %1: %2 h accounted up to %3 UTC, prices in %4</source>
        <translation>KOSTENVERRECHNUNG %1: %2 h erfasst bis %3 UTC, Preise in %4</translation>
    </message>
    <message>
        <source>Missing: up to %1 h of the period have no history (before it began, or while Strata did not poll); they are not counted as zero.</source>
        <translation>Fehlend: bis zu %1 h des Zeitraums haben keinen Verlauf (vor seinem Beginn oder während Strata nicht abfragte); sie werden nicht als null gezählt.</translation>
    </message>
    <message>
        <source>No price on the rate card for: %1 (counted in hours, not in cost).</source>
        <translation>Kein Preis in der Preisliste für: %1 (in Stunden gezählt, nicht in Kosten).</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <source>[--config PATH | --demo] get sources|volumes|snapshots|clusters|nodes|projects|jobs|pvcs|service-levels|pools|aks|schedules|datasets|commits|caches|cache-targets|grids|tenants|buckets|alerts|events|systems|attention|forecasts [--source NAME] [--volume NAME] [--project NAME] [--dataset NAME] [--target NAME] [-o table|json|csv]
[--config PATH | --demo] get events [--system NAME] [--severity critical|error|warning|info] [--since TIME] [--until TIME] [--search TEXT] [--job NAME]
[--config PATH | --demo] get chargeback [--month YYYY-MM] [--source NAME] [-o table|json|csv]</source>
        <translation>[--config PATH | --demo] get sources|volumes|snapshots|clusters|nodes|projects|jobs|pvcs|service-levels|pools|aks|schedules|datasets|commits|caches|cache-targets|grids|tenants|buckets|alerts|events|systems|attention|forecasts [--source NAME] [--volume NAME] [--project NAME] [--dataset NAME] [--target NAME] [-o table|json|csv]
[--config PATH | --demo] get events [--system NAME] [--severity critical|error|warning|info] [--since TIME] [--until TIME] [--search TEXT] [--job NAME]
[--config PATH | --demo] get chargeback [--month YYYY-MM] [--source NAME] [-o table|json|csv]</translation>
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
        <translation>Mit --demo: ein generierter Cluster mit so vielen Volumes (Skalierungstests).</translation>
    </message>
    <message>
        <source>Same as --demo.</source>
        <translation>Wie --demo.</translation>
    </message>
    <message>
        <source>strata: unknown argument &quot;%1&quot;</source>
        <translation>strata: unbekanntes Argument „%1“</translation>
    </message>
    <message>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <source>The demo estate could not start: %1</source>
        <translation>Die Demo-Umgebung konnte nicht starten: %1</translation>
    </message>
    <message>
        <source>The configuration cannot be read:
%1</source>
        <translation>Die Konfiguration kann nicht gelesen werden:
%1</translation>
    </message>
    <message>
        <source>Capacity history and the audit log are not recorded: %1</source>
        <translation>Kapazitätsverlauf und Audit-Log werden nicht aufgezeichnet: %1</translation>
    </message>
    <message>
        <source>The support bundle %1 cannot be opened: %2</source>
        <translation>Das Support-Bundle %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Show this support bundle read-only, connecting to nothing.</source>
        <translation>Dieses Support-Bundle schreibgeschützt anzeigen, ohne Verbindung zu irgendetwas.</translation>
    </message>
</context>
<context>
    <name>rows</name>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days</source>
        <translation>
            <numerusform>%n Tag</numerusform>
            <numerusform>%n Tagen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n years</source>
        <translation>
            <numerusform>%n Jahr</numerusform>
            <numerusform>%n Jahren</numerusform>
        </translation>
    </message>
    <message>
        <source>full</source>
        <translation>voll</translation>
    </message>
    <message>
        <source>no trend</source>
        <translation>kein Trend</translation>
    </message>
    <message>
        <source>too little data</source>
        <translation>zu wenige Daten</translation>
    </message>
    <message>
        <source>growing, no limit</source>
        <translation>wächst, ohne Grenze</translation>
    </message>
    <message>
        <source>not within 100 years</source>
        <translation>nicht innerhalb von 100 Jahren</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>in %1 (%2–%3)</source>
        <translation>in %1 (%2–%3)</translation>
    </message>
</context>
<context>
    <name>strata::cli</name>
    <message>
        <source>timed out collecting the bundle</source>
        <translation>Zeitüberschreitung beim Erstellen des Bundles</translation>
    </message>
    <message>
        <source>Wrote support bundle %1</source>
        <translation>Support-Bundle %1 geschrieben</translation>
    </message>
    <message>
        <source>%1: %2 objects</source>
        <translation>%1: %2 Objekte</translation>
    </message>
    <message>
        <source>%1 bytes, sha256 %2</source>
        <translation>%1 Bytes, sha256 %2</translation>
    </message>
    <message>
        <source>cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>the bundle has no source named &quot;%1&quot;</source>
        <translation>das Bundle hat keine Quelle namens „%1“</translation>
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
        <source>unknown resource &quot;%1&quot;</source>
        <translation>unbekannte Ressource „%1“</translation>
    </message>
    <message>
        <source>JOB:      %1 (%2)</source>
        <translation>JOB:      %1 (%2)</translation>
    </message>
    <message>
        <source>STATUS:   %1, %2 %3 GPU</source>
        <translation>STATUS:   %1, %2 %3 GPU</translation>
    </message>
    <message>
        <source>VERDICT:  %1</source>
        <translation>BEFUND:   %1</translation>
    </message>
    <message>
        <source>FINDINGS (decisive first)</source>
        <translation>FESTSTELLUNGEN (entscheidende zuerst)</translation>
    </message>
    <message>
        <source>NEXT:     %1</source>
        <translation>NÄCHSTES: %1</translation>
    </message>
    <message>
        <source>TIMELINE (volume %1)</source>
        <translation>ZEITVERLAUF (Volume %1)</translation>
    </message>
    <message>
        <source>TIME</source>
        <translation>ZEIT</translation>
    </message>
    <message>
        <source>GPU %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <source>LATENCY MS</source>
        <translation>LATENZ MS</translation>
    </message>
    <message>
        <source>why prints table or json</source>
        <translation>why gibt table oder json aus</translation>
    </message>
    <message>
        <source>job name %1 is not unique (%2): use &lt;namespace&gt;/&lt;name&gt; and --source</source>
        <translation>Job-Name %1 ist nicht eindeutig (%2): &lt;namespace&gt;/&lt;name&gt; und --source verwenden</translation>
    </message>
    <message>
        <source>no job %1 in %2</source>
        <translation>kein Job %1 in %2</translation>
    </message>
    <message>
        <source>THROUGHPUT</source>
        <translation>DURCHSATZ</translation>
    </message>
    <message>
        <source>CAP</source>
        <translation>LIMIT</translation>
    </message>
    <message>
        <source>what-if prints table or json</source>
        <translation>what-if gibt table oder json aus</translation>
    </message>
    <message>
        <source>CLUSTER %1: %2 GPUs; quotas %3 → %4; spare GPUs split by %5</source>
        <translation>CLUSTER %1: %2 GPUs; Kontingente %3 → %4; freie GPUs verteilt nach %5</translation>
    </message>
    <message>
        <source>over-quota weight</source>
        <translation>Über-Kontingent-Gewicht</translation>
    </message>
    <message>
        <source>quota</source>
        <translation>Kontingent</translation>
    </message>
    <message>
        <source>Note: the quotas add up to %1 GPUs, not the cluster&apos;s %2 (Run:ai expects them equal).</source>
        <translation>Hinweis: Die Kontingente ergeben %1 GPUs, nicht die %2 des Clusters (Run:ai erwartet Gleichheit).</translation>
    </message>
    <message>
        <source>No job would start or be preempted.</source>
        <translation>Kein Job würde starten oder verdrängt werden.</translation>
    </message>
    <message>
        <source>Unchanged: %1 running, %2 queued. Nothing was changed: apply quotas in Run:ai or with kubectl edit queue.</source>
        <translation>Unverändert: %1 laufend, %2 wartend. Nichts wurde geändert: Kontingente in Run:ai oder mit kubectl edit queue anwenden.</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>Hinweis: %1</translation>
    </message>
    <message>
        <source>no GPU cluster answered (%1)</source>
        <translation>kein GPU-Cluster hat geantwortet (%1)</translation>
    </message>
    <message>
        <source>several GPU clusters (%1): choose one with --source</source>
        <translation>mehrere GPU-Cluster (%1): einen mit --source wählen</translation>
    </message>
</context>
<context>
    <name>strata::core</name>
    <message>
        <source>No job %1 in source %2.</source>
        <translation>Kein Job %1 in Quelle %2.</translation>
    </message>
    <message>
        <source>Job %1 is not pending: it is %2.</source>
        <translation>Job %1 ist nicht ausstehend: Er ist %2.</translation>
    </message>
    <message>
        <source>The job mounts PVC %1, which does not exist.</source>
        <translation>Der Job bindet PVC %1 ein, der nicht existiert.</translation>
    </message>
    <message>
        <source>Create PVC %1, or remove the mount from the job.</source>
        <translation>PVC %1 erstellen oder die Einbindung aus dem Job entfernen.</translation>
    </message>
    <message>
        <source>PVC %1 is %2: it names no storage class and no volume.</source>
        <translation>PVC %1 ist %2: Er nennt keine Storage-Klasse und kein Volume.</translation>
    </message>
    <message>
        <source>Bind PVC %1: give it a storage class or create a PersistentVolume for it.</source>
        <translation>PVC %1 binden: ihm eine Storage-Klasse geben oder ein PersistentVolume dafür erstellen.</translation>
    </message>
    <message>
        <source>PVC %1 is %2: no claim of storage class %3 was ever bound here, so nothing provisions it.</source>
        <translation>PVC %1 ist %2: Hier wurde nie ein Claim der Storage-Klasse %3 gebunden, daher stellt ihn nichts bereit.</translation>
    </message>
    <message>
        <source>Bind PVC %1: its storage class %2 has no provisioner.</source>
        <translation>PVC %1 binden: Seine Storage-Klasse %2 hat keinen Provisioner.</translation>
    </message>
    <message>
        <source>Bind PVC %1: its storage class %2 has no provisioner; use %3 instead.</source>
        <translation>PVC %1 binden: Seine Storage-Klasse %2 hat keinen Provisioner; stattdessen %3 verwenden.</translation>
    </message>
    <message>
        <source>PVC %1 is %2 (storage class %3).</source>
        <translation>PVC %1 ist %2 (Storage-Klasse %3).</translation>
    </message>
    <message>
        <source>Bind PVC %1: check its provisioner&apos;s events for errors.</source>
        <translation>PVC %1 binden: die Ereignisse seines Provisioners auf Fehler prüfen.</translation>
    </message>
    <message>
        <source>Image %1 cannot be pulled (%2).</source>
        <translation>Image %1 kann nicht abgerufen werden (%2).</translation>
    </message>
    <message>
        <source>Image %1 cannot be pulled: %2</source>
        <translation>Image %1 kann nicht abgerufen werden: %2</translation>
    </message>
    <message>
        <source>Its pod holds %1 GPU on %2 meanwhile.</source>
        <translation>Sein Pod belegt währenddessen %1 GPU auf %2.</translation>
    </message>
    <message>
        <source>Fix the image name or tag, or give the node access to the registry (imagePullSecrets).</source>
        <translation>Image-Namen oder -Tag korrigieren oder dem Node Zugriff auf die Registry geben (imagePullSecrets).</translation>
    </message>
    <message>
        <source>End another interactive session of %1, or lower the request to %2 GPU.</source>
        <translation>Eine andere interaktive Sitzung von %1 beenden oder die Anforderung auf %2 GPU senken.</translation>
    </message>
    <message>
        <source>Project %1 holds %2 of its %3 guaranteed GPUs and its fair share is %4; this job asks for %5 more.</source>
        <translation>Projekt %1 belegt %2 seiner %3 garantierten GPUs und sein fairer Anteil ist %4; dieser Job fordert %5 weitere an.</translation>
    </message>
    <message>
        <source>Wait for %1&apos;s own running jobs to end; no other project runs over its quota.</source>
        <translation>Warten, bis die eigenen laufenden Jobs von %1 enden; kein anderes Projekt läuft über seinem Kontingent.</translation>
    </message>
    <message>
        <source>Wait for the over-quota jobs of %1 to finish, or for %2&apos;s own running jobs to end.</source>
        <translation>Warten, bis die Jobs von %1 über dem Kontingent fertig sind oder die eigenen laufenden Jobs von %2 enden.</translation>
    </message>
    <message>
        <source>No node has %1 free GPU together: every schedulable GPU is taken.</source>
        <translation>Kein Node hat %1 freie GPU zusammen: Jede planbare GPU ist belegt.</translation>
    </message>
    <message>
        <source>No node has %1 free GPU together; the largest free block is %2 GPU on %3 (%4 free in the cluster).</source>
        <translation>Kein Node hat %1 freie GPU zusammen; der größte freie Block ist %2 GPU auf %3 (%4 frei im Cluster).</translation>
    </message>
    <message>
        <source>Lower its request to %1 GPU, or wait until jobs on one node end.</source>
        <translation>Die Anforderung auf %1 GPU senken oder warten, bis Jobs auf einem Node enden.</translation>
    </message>
    <message>
        <source>Wait until running jobs end.</source>
        <translation>Warten, bis laufende Jobs enden.</translation>
    </message>
    <message>
        <source>Wait for over-quota jobs of other projects to be preempted, or for running jobs to end.</source>
        <translation>Warten, bis Jobs anderer Projekte über dem Kontingent verdrängt werden oder laufende Jobs enden.</translation>
    </message>
    <message>
        <source>The scheduler says: %1</source>
        <translation>Der Scheduler meldet: %1</translation>
    </message>
    <message>
        <source>Job %1 is starting on %2; nothing holds it.</source>
        <translation>Job %1 startet auf %2; nichts hält ihn auf.</translation>
    </message>
    <message>
        <source>Job %1 waits for %2 GPU, but no rule holds it now: it should be scheduled on the next cycle.</source>
        <translation>Job %1 wartet auf %2 GPU, aber derzeit hält ihn keine Regel auf: Er sollte im nächsten Zyklus eingeplant werden.</translation>
    </message>
    <message>
        <source>Job %1 is %2: %3</source>
        <translation>Job %1 ist %2: %3</translation>
    </message>
    <message>
        <source>Raise the service level of %1 (move it to a Premium or Ultra capacity pool).</source>
        <translation>Das Servicelevel von %1 erhöhen (in einen Premium- oder Ultra-Kapazitätspool verschieben).</translation>
    </message>
    <message>
        <source>Raise the service level of %1 (a QoS policy with a higher limit).</source>
        <translation>Das Servicelevel von %1 erhöhen (eine QoS-Richtlinie mit höherem Limit).</translation>
    </message>
    <message>
        <source>Job %1 runs on %2 GPU, but its utilization is unknown: no DCGM metrics were reported for its GPUs.</source>
        <translation>Job %1 läuft auf %2 GPU, aber seine Auslastung ist unbekannt: Für seine GPUs wurden keine DCGM-Metriken gemeldet.</translation>
    </message>
    <message>
        <source>No DCGM utilization for %1&apos;s GPUs on %2.</source>
        <translation>Keine DCGM-Auslastung für die GPUs von %1 auf %2.</translation>
    </message>
    <message>
        <source>Configure the source&apos;s Prometheus URL (dcgm-exporter) to see GPU utilization.</source>
        <translation>Die Prometheus-URL der Quelle (dcgm-exporter) konfigurieren, um die GPU-Auslastung zu sehen.</translation>
    </message>
    <message>
        <source>Job %1 keeps its %2 GPU %3 % busy: compute-bound, not a problem.</source>
        <translation>Job %1 lastet seine %2 GPU zu %3 % aus: rechengebunden, kein Problem.</translation>
    </message>
    <message>
        <source>Storage does not hold it back</source>
        <translation>Der Speicher bremst ihn nicht</translation>
    </message>
    <message>
        <source>and it reads cached commit %1.</source>
        <translation>und er liest den Commit %1 aus dem Cache.</translation>
    </message>
    <message>
        <source>GPU utilization %1 % (at least %2 %). %3</source>
        <translation>GPU-Auslastung %1 % (mindestens %2 %). %3</translation>
    </message>
    <message>
        <source>Interactive session %1 holds %2 GPU at %3 % with no I/O: it is idle.</source>
        <translation>Interaktive Sitzung %1 belegt %2 GPU bei %3 % ohne I/O: Sie ist untätig.</translation>
    </message>
    <message>
        <source>End the session %1 to give its %2 GPU back to the queue.</source>
        <translation>Die Sitzung %1 beenden, um ihre %2 GPU an die Warteschlange zurückzugeben.</translation>
    </message>
    <message>
        <source>Job %1&apos;s GPUs wait for data: %2 % busy while volume %3 </source>
        <translation>Die GPUs von Job %1 warten auf Daten: %2 % ausgelastet, während Volume %3 </translation>
    </message>
    <message>
        <source>answers in %1 ms.</source>
        <translation>in %1 ms antwortet.</translation>
    </message>
    <message>
        <source>Volume %1 answers in %2 ms on average (slow from %3 ms).</source>
        <translation>Volume %1 antwortet im Mittel in %2 ms (langsam ab %3 ms).</translation>
    </message>
    <message>
        <source>Job %1 keeps its GPUs %2 % busy; its volume %3 is below its limits.</source>
        <translation>Job %1 lastet seine GPUs zu %2 % aus; sein Volume %3 liegt unter seinen Limits.</translation>
    </message>
    <message>
        <source>Job %1 keeps its GPUs only %2 % busy, and storage does not hold it back.</source>
        <translation>Job %1 lastet seine GPUs nur zu %2 % aus, und der Speicher bremst ihn nicht.</translation>
    </message>
    <message>
        <source>The job reads no cached commit and no known storage volume: its data comes straight from the source.</source>
        <translation>Der Job liest keinen Commit aus dem Cache und kein bekanntes Speicher-Volume: Seine Daten kommen direkt von der Quelle.</translation>
    </message>
    <message>
        <source>The job reads its data uncached from %1, decoding it on the fly.</source>
        <translation>Der Job liest seine Daten ohne Cache aus %1 und dekodiert sie dabei.</translation>
    </message>
    <message>
        <source>Cache the dataset&apos;s commit on a cache target next to the cluster and mount it.</source>
        <translation>Den Commit des Datensatzes auf ein Cache-Ziel neben dem Cluster laden und einbinden.</translation>
    </message>
    <message>
        <source>GPU utilization %1 % with storage below its limits: the job&apos;s own input pipeline (CPU decoding, small batches) keeps the GPUs waiting.</source>
        <translation>GPU-Auslastung %1 % bei Speicher unter seinen Limits: Die eigene Eingabe-Pipeline des Jobs (CPU-Dekodierung, kleine Batches) lässt die GPUs warten.</translation>
    </message>
    <message>
        <source>Profile the data loader: more loader workers, larger batches.</source>
        <translation>Den Data Loader profilieren: mehr Loader-Worker, größere Batches.</translation>
    </message>
    <message>
        <source>started</source>
        <translation>gestartet</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>already applied</source>
        <translation>bereits angewendet</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>Cache requested</source>
        <translation>Cache angefordert</translation>
    </message>
    <message>
        <source>Cache loading</source>
        <translation>Cache wird geladen</translation>
    </message>
    <message>
        <source>Cache ready</source>
        <translation>Cache bereit</translation>
    </message>
    <message>
        <source>Cache evicting</source>
        <translation>Cache wird verdrängt</translation>
    </message>
    <message>
        <source>Cache evicted</source>
        <translation>Cache verdrängt</translation>
    </message>
    <message>
        <source>Cache failed</source>
        <translation>Cache fehlgeschlagen</translation>
    </message>
    <message>
        <source>Source healthy</source>
        <translation>Quelle fehlerfrei</translation>
    </message>
    <message>
        <source>Source degraded</source>
        <translation>Quelle beeinträchtigt</translation>
    </message>
    <message>
        <source>Source unreachable</source>
        <translation>Quelle nicht erreichbar</translation>
    </message>
    <message>
        <source>Source needs authentication</source>
        <translation>Quelle erfordert Authentifizierung</translation>
    </message>
    <message>
        <source>Source state unknown</source>
        <translation>Quellenzustand unbekannt</translation>
    </message>
    <message>
        <source>Project %1&apos;s interactive jobs hold %2 of its %3 guaranteed GPUs; this interactive job asks for %4 more and interactive (non-preemptible) jobs must stay within the quota. Training jobs do not count against this limit.</source>
        <translation>Die interaktiven Jobs von Projekt %1 belegen %2 seiner %3 garantierten GPUs; dieser interaktive Job fordert %4 weitere an, und interaktive (nicht verdrängbare) Jobs müssen innerhalb des Kontingents bleiben. Training-Jobs zählen nicht gegen diese Grenze.</translation>
    </message>
    <message>
        <source>End another interactive session of %1, submit this one as a training (preemptible) job, or raise its quota.</source>
        <translation>Eine andere interaktive Sitzung von %1 beenden, diesen Job als Training-Job (verdrängbar) übermitteln oder das Kontingent erhöhen.</translation>
    </message>
    <message>
        <source>Its volume %1 delivers %2</source>
        <translation>Sein Volume %1 liefert %2</translation>
    </message>
    <message>
        <source>GPU utilization %1 % and %2 from storage since %3.</source>
        <translation>GPU-Auslastung %1 % und %2 aus dem Speicher seit %3.</translation>
    </message>
    <message>
        <source>runs at %1 of its %2 cap.</source>
        <translation>mit %1 seiner Obergrenze von %2 läuft.</translation>
    </message>
    <message>
        <source>Volume %1 delivers %2 against its cap of %3 (%4 %) while the GPUs are %5 % busy.</source>
        <translation>Volume %1 liefert %2 bei einer Obergrenze von %3 (%4 %), während die GPUs zu %5 % ausgelastet sind.</translation>
    </message>
    <message>
        <source>no active alerts</source>
        <translation>keine aktiven Alarme</translation>
    </message>
    <message>
        <source>all provisioned</source>
        <translation>alle bereitgestellt</translation>
    </message>
    <message>
        <source>all volumes below %1 %</source>
        <translation>alle Volumes unter %1 %</translation>
    </message>
    <message>
        <source>degraded</source>
        <translation>eingeschränkt</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <source>needs credentials</source>
        <translation>Anmeldedaten fehlen</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 · GPUs held: %2</source>
        <translation>%1 · belegte GPUs: %2</translation>
    </message>
    <message>
        <source>%1 job pending while allocated GPUs idle: %2</source>
        <translation>%1 Job wartet, während zugeteilte GPUs ungenutzt sind: %2</translation>
    </message>
    <message>
        <source>%1 jobs pending while allocated GPUs idle: %2</source>
        <translation>%1 Jobs warten, während zugeteilte GPUs ungenutzt sind: %2</translation>
    </message>
    <message>
        <source>Σ project quotas %1 ≠ %2 GPUs in the cluster</source>
        <translation>Σ Projektquoten %1 ≠ %2 GPUs im Cluster</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>%1 alert</source>
        <translation>%1-Alarm</translation>
    </message>
    <message>
        <source>%1 alert: %2</source>
        <translation>%1-Alarm: %2</translation>
    </message>
    <message>
        <source>%1 used: %2 of %3</source>
        <translation>%1 belegt: %2 von %3</translation>
    </message>
    <message>
        <source>provisioning state %1</source>
        <translation>Bereitstellungsstatus %1</translation>
    </message>
    <message>
        <source>above its %1 % high watermark: %2 of %3</source>
        <translation>über seiner oberen Schwelle von %1 %: %2 von %3</translation>
    </message>
    <message>
        <source>%1 holds GPUs on %2 that Strata cannot place; left out</source>
        <translation>%1 belegt GPUs auf %2, die Strata nicht zuordnen kann; ausgelassen</translation>
    </message>
    <message>
        <source>an unknown node</source>
        <translation>einem unbekannten Node</translation>
    </message>
    <message>
        <source>%1 has no projects: it is not a GPU cluster, or its first poll has not landed</source>
        <translation>%1 hat keine Projekte: Es ist kein GPU-Cluster, oder die erste Abfrage ist noch nicht eingetroffen</translation>
    </message>
    <message>
        <source>%1 has no project %2</source>
        <translation>%1 hat kein Projekt %2</translation>
    </message>
    <message>
        <source>A quota or weight cannot be negative (%1)</source>
        <translation>Ein Kontingent oder Gewicht kann nicht negativ sein (%1)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not PROJECT=WEIGHT (a number &gt;= 0, e.g. team-b=3)</source>
        <translation>„%1“ ist nicht PROJEKT=GEWICHT (eine Zahl &gt;= 0, z. B. team-b=3)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not PROJECT=GPUS (a number &gt;= 0, e.g. team-d=8 or team-b=2.5)</source>
        <translation>„%1“ ist nicht PROJEKT=GPUS (eine Zahl &gt;= 0, z. B. team-d=8 oder team-b=2.5)</translation>
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
        <translation>Versuch %1</translation>
    </message>
    <message>
        <source>The action could not be recorded in the history store before sending, so it was not sent.</source>
        <translation>Die Aktion konnte vor dem Senden nicht im Verlaufsspeicher festgehalten werden und wurde deshalb nicht gesendet.</translation>
    </message>
    <message>
        <source>Strata stopped while this ran; checking what %1 did</source>
        <translation>Strata wurde währenddessen beendet; prüfe, was %1 getan hat</translation>
    </message>
    <message>
        <source>Strata stopped while this action ran and its journal entry cannot be read; it was not repeated. Check %1 on %2.</source>
        <translation>Strata wurde während dieser Aktion beendet, und ihr Journaleintrag ist nicht lesbar; sie wurde nicht wiederholt. Prüfen Sie %1 auf %2.</translation>
    </message>
    <message>
        <source>Strata stopped while this action ran (%1); this kind of action cannot be checked automatically, so it was not repeated. Check %2 on %3.</source>
        <translation>Strata wurde während dieser Aktion beendet (%1); diese Art von Aktion lässt sich nicht automatisch prüfen und wurde deshalb nicht wiederholt. Prüfen Sie %2 auf %3.</translation>
    </message>
    <message>
        <source>Recovered after a restart: </source>
        <translation>Nach einem Neustart wiederhergestellt: </translation>
    </message>
    <message>
        <source>Recovered after a restart: %1</source>
        <translation>Nach einem Neustart wiederhergestellt: %1</translation>
    </message>
</context>
<context>
    <name>strata::core::AzureSource</name>
    <message>
        <source>Create snapshot</source>
        <translation>Snapshot erstellen</translation>
    </message>
    <message>
        <source>Delete snapshot</source>
        <translation>Snapshot löschen</translation>
    </message>
    <message>
        <source>Revert volume to snapshot</source>
        <translation>Volume auf Snapshot zurücksetzen</translation>
    </message>
    <message>
        <source>Change service level</source>
        <translation>Servicelevel ändern</translation>
    </message>
    <message>
        <source>%1 is an Azure source: Strata does not run %2 there.</source>
        <translation>%1 ist eine Azure-Quelle: Strata führt %2 dort nicht aus.</translation>
    </message>
    <message>
        <source>Volume %1 is not known to %2 (yet).</source>
        <translation>Volume %1 ist %2 (noch) nicht bekannt.</translation>
    </message>
    <message>
        <source>Snapshot %1 of %2 is not in the loaded snapshot list.</source>
        <translation>Snapshot %1 von %2 ist nicht in der geladenen Snapshot-Liste.</translation>
    </message>
    <message numerus="yes">
        <source>%n snapshot(s)</source>
        <translation>
            <numerusform>%n Snapshot</numerusform>
            <numerusform>%n Snapshots</numerusform>
        </translation>
    </message>
    <message>
        <source>Azure NetApp Files takes snapshot &quot;%1&quot; of %2 (%3 used).</source>
        <translation>Azure NetApp Files erstellt Snapshot „%1“ von %2 (%3 belegt).</translation>
    </message>
    <message>
        <source>It takes no space at first; it then holds the blocks that change.</source>
        <translation>Er belegt anfangs keinen Platz; danach hält er die geänderten Blöcke.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid snapshot name (a letter or digit, then letters, digits, _ . -; at most 255 characters).</source>
        <translation>„%1“ ist kein gültiger Snapshot-Name (ein Buchstabe oder eine Ziffer, dann Buchstaben, Ziffern, _ . -; höchstens 255 Zeichen).</translation>
    </message>
    <message>
        <source>%1 already has a snapshot named &quot;%2&quot;.</source>
        <translation>%1 hat bereits einen Snapshot namens „%2“.</translation>
    </message>
    <message>
        <source>Azure NetApp Files deletes snapshot &quot;%1&quot; (taken %2) of %3.</source>
        <translation>Azure NetApp Files löscht Snapshot „%1“ (erstellt: %2) von %3.</translation>
    </message>
    <message>
        <source>The snapshot cannot be recovered once deleted.</source>
        <translation>Der Snapshot kann nach dem Löschen nicht wiederhergestellt werden.</translation>
    </message>
    <message>
        <source>current contents (%1 used)</source>
        <translation>aktueller Inhalt (%1 belegt)</translation>
    </message>
    <message>
        <source>contents of %1 (%2)</source>
        <translation>Inhalt von %1 (%2)</translation>
    </message>
    <message>
        <source>Azure NetApp Files reverts %1 to snapshot &quot;%2&quot; in place.</source>
        <translation>Azure NetApp Files setzt %1 direkt auf Snapshot „%2“ zurück.</translation>
    </message>
    <message>
        <source>Everything written to %1 after %2 is lost.</source>
        <translation>Alle Schreibvorgänge auf %1 nach dem Snapshot (%2) gehen verloren.</translation>
    </message>
    <message numerus="yes">
        <source>%n newer snapshot(s) will be deleted: %1</source>
        <translation>
            <numerusform>%n neuerer Snapshot wird gelöscht: %1</numerusform>
            <numerusform>%n neuere Snapshots werden gelöscht: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Clients that have the volume mounted may need to remount.</source>
        <translation>Clients, die das Volume eingehängt haben, müssen es eventuell neu einhängen.</translation>
    </message>
    <message>
        <source>%1 (pool %2, cap %3)</source>
        <translation>%1 (Pool %2, Obergrenze %3)</translation>
    </message>
    <message>
        <source>%1 is not an Azure NetApp Files volume.</source>
        <translation>%1 ist kein Volume von Azure NetApp Files.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a service level a volume can move to (%2).</source>
        <translation>„%1“ ist kein Servicelevel, in das ein Volume wechseln kann (%2).</translation>
    </message>
    <message>
        <source>%1 is already at %2 (pool %3).</source>
        <translation>%1 hat bereits %2 (Pool %3).</translation>
    </message>
    <message>
        <source>Azure creates capacity pool %1 (%2, %3, auto QoS) in account %4 first; the pool is billed from then on.</source>
        <translation>Azure erstellt zuerst den Kapazitätspool %1 (%2, %3, Auto-QoS) im Konto %4; der Pool wird ab dann abgerechnet.</translation>
    </message>
    <message>
        <source>Azure moves %1 (%2 quota) from pool %3 to pool %4 (%5 free of %6, %7 of %8 volumes).</source>
        <translation>Azure verschiebt %1 (%2 Kontingent) von Pool %3 in Pool %4 (%5 von %6 frei, %7 von %8 Volumes).</translation>
    </message>
    <message>
        <source>The volume stays mounted; no data is copied.</source>
        <translation>Das Volume bleibt eingehängt; es werden keine Daten kopiert.</translation>
    </message>
    <message>
        <source>Its ARM id becomes %1; Strata follows it by its file system id, so its history continues.</source>
        <translation>Seine ARM-ID wird zu %1; Strata verfolgt es über seine Dateisystem-ID, sodass sein Verlauf erhalten bleibt.</translation>
    </message>
    <message>
        <source>Pool %1 has %2 free; %3 needs %4.</source>
        <translation>Pool %1 hat %2 frei; %3 benötigt %4.</translation>
    </message>
    <message>
        <source>Pool %1 already holds %2 volumes, the most ANF allows.</source>
        <translation>Pool %1 enthält bereits %2 Volumes, das Maximum, das ANF zulässt.</translation>
    </message>
    <message>
        <source>Volume %1 is %2; wait until Azure finishes.</source>
        <translation>Volume %1 ist %2; warten, bis Azure fertig ist.</translation>
    </message>
</context>
<context>
    <name>strata::core::Bundle</name>
    <message numerus="yes">
        <source>the history store did not answer %n queries in time</source>
        <translation>
            <numerusform>Der Verlaufsspeicher hat %n Abfrage nicht rechtzeitig beantwortet</numerusform>
            <numerusform>Der Verlaufsspeicher hat %n Abfragen nicht rechtzeitig beantwortet</numerusform>
        </translation>
    </message>
    <message>
        <source>compressing the bundle failed</source>
        <translation>Komprimieren des Bundles fehlgeschlagen</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>read-only: this is a support bundle from %1</source>
        <translation>schreibgeschützt: Dies ist ein Support-Bundle von %1</translation>
    </message>
</context>
<context>
    <name>strata::core::CommitComparison</name>
    <message>
        <source>%1 added (%2), %3 removed (%4), %5 changed (%6), %7 unchanged</source>
        <translation>%1 hinzugefügt (%2), %3 entfernt (%4), %5 geändert (%6), %7 unverändert</translation>
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
        <translation>Das Passwort von %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a configured StorageGRID source.</source>
        <translation>%1 ist keine konfigurierte StorageGRID-Quelle.</translation>
    </message>
    <message>
        <source>%1 has no S3 endpoint (s3_url) for its datasets.</source>
        <translation>%1 hat keinen S3-Endpunkt (s3_url) für seine Datensätze.</translation>
    </message>
    <message>
        <source>Dataset %1 is not known to %2 (yet).</source>
        <translation>Datensatz %1 ist %2 (noch) nicht bekannt.</translation>
    </message>
    <message>
        <source>Commit %1 of %2 is not known to %3.</source>
        <translation>Commit %1 von %2 ist %3 nicht bekannt.</translation>
    </message>
    <message>
        <source>%1 is a file dataset on ONTAP: cache it as a FlexClone.</source>
        <translation>%1 ist ein Datei-Datensatz auf ONTAP: als FlexClone in den Cache laden.</translation>
    </message>
    <message>
        <source>No S3 secret is stored for %1.</source>
        <translation>Für %1 ist kein geheimer S3-Schlüssel gespeichert.</translation>
    </message>
    <message>
        <source>Cannot read the S3 secret of %1: %2</source>
        <translation>Der geheime S3-Schlüssel von %1 kann nicht gelesen werden: %2</translation>
    </message>
</context>
<context>
    <name>strata::core::GpuAllocator</name>
    <message>
        <source>preempted by %1 reclaiming its quota</source>
        <translation>verdrängt von %1, das sein Kontingent zurückfordert</translation>
    </message>
    <message>
        <source>non-preemptible: %1 GPUs would take %2&apos;s non-preemptible GPUs past its quota of %3</source>
        <translation>nicht verdrängbar: %1 GPUs würden die nicht verdrängbaren GPUs von %2 über sein Kontingent von %3 bringen</translation>
    </message>
    <message>
        <source>project %1 is at or over its fair share (%2/%3 GPUs)</source>
        <translation>Projekt %1 hat seinen fairen Anteil erreicht oder überschritten (%2/%3 GPUs)</translation>
    </message>
    <message>
        <source>no GPU has %1 free</source>
        <translation>keine GPU hat %1 frei</translation>
    </message>
    <message>
        <source>no node has a free GPU</source>
        <translation>kein Node hat eine freie GPU</translation>
    </message>
    <message>
        <source>no node has %1 free GPUs together</source>
        <translation>kein Node hat %1 freie GPUs zusammen</translation>
    </message>
</context>
<context>
    <name>strata::core::HistoryService</name>
    <message>
        <source>could not open the history store</source>
        <translation>der Verlaufsspeicher konnte nicht geöffnet werden</translation>
    </message>
    <message>
        <source>the history store is not open</source>
        <translation>der Verlaufsspeicher ist nicht geöffnet</translation>
    </message>
</context>
<context>
    <name>strata::core::KubernetesSource</name>
    <message>
        <source>Submit job</source>
        <translation>Job übermitteln</translation>
    </message>
    <message>
        <source>Project %1 is not known on %2.</source>
        <translation>Projekt %1 ist auf %2 nicht bekannt.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid job name: use lower-case letters, digits and &apos;-&apos;, at most 63 characters, starting and ending with a letter or digit.</source>
        <translation>„%1“ ist kein gültiger Job-Name: Kleinbuchstaben, Ziffern und &apos;-&apos; verwenden, höchstens 63 Zeichen, Anfang und Ende mit Buchstabe oder Ziffer.</translation>
    </message>
    <message>
        <source>A job named %1 already exists in project %2.</source>
        <translation>In Projekt %2 existiert bereits ein Job namens %1.</translation>
    </message>
    <message>
        <source>An image is required.</source>
        <translation>Ein Image ist erforderlich.</translation>
    </message>
    <message>
        <source>Ask for whole GPUs (1, 2, ...) or a fraction of one GPU (0.1 to 0.9).</source>
        <translation>Ganze GPUs (1, 2, …) oder einen Bruchteil einer GPU (0.1 bis 0.9) anfordern.</translation>
    </message>
    <message>
        <source>No node of %1 has %2 GPUs: the largest has %3, and a job&apos;s GPUs sit on one node.</source>
        <translation>Kein Node von %1 hat %2 GPUs: Der größte hat %3, und die GPUs eines Jobs liegen auf einem Node.</translation>
    </message>
    <message>
        <source>PVC %1 does not exist in namespace %2.</source>
        <translation>PVC %1 existiert nicht in Namespace %2.</translation>
    </message>
    <message>
        <source>PVC %1 is %2: the job waits until it is bound.</source>
        <translation>PVC %1 ist %2: Der Job wartet, bis er gebunden ist.</translation>
    </message>
    <message>
        <source>Creates Job %1 in namespace %2: image %3, %4 GPU(s), %5.</source>
        <translation>Erstellt Job %1 in Namespace %2: Image %3, %4 GPU(s), %5.</translation>
    </message>
    <message>
        <source>training (preemptible)</source>
        <translation>Training (verdrängbar)</translation>
    </message>
    <message>
        <source>interactive (not preemptible)</source>
        <translation>interaktiv (nicht verdrängbar)</translation>
    </message>
    <message>
        <source>Mounts PVC %1 at %2%3.</source>
        <translation>Hängt PVC %1 unter %2%3 ein.</translation>
    </message>
    <message>
        <source> (read-only)</source>
        <translation> (schreibgeschützt)</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2/%3 GPUs, %n queued</source>
        <translation>
            <numerusform>%1: %2/%3 GPUs, %n wartend</numerusform>
            <numerusform>%1: %2/%3 GPUs, %n wartend</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2/%3 GPUs</source>
        <translation>%1: %2/%3 GPUs</translation>
    </message>
    <message>
        <source>Within the project&apos;s guaranteed quota: it starts as soon as a node has room, reclaiming GPUs from over-quota training jobs of other projects if needed.</source>
        <translation>Innerhalb des garantierten Kontingents des Projekts: Er startet, sobald ein Node Platz hat, und holt bei Bedarf GPUs von Training-Jobs anderer Projekte über Kontingent zurück.</translation>
    </message>
    <message>
        <source>%1: %2/%3 GPUs (over quota)</source>
        <translation>%1: %2/%3 GPUs (über Kontingent)</translation>
    </message>
    <message>
        <source>It runs over quota on idle GPUs and may be preempted when another project reclaims its guaranteed GPUs.</source>
        <translation>Er läuft über Kontingent auf freien GPUs und kann verdrängt werden, wenn ein anderes Projekt seine garantierten GPUs zurückfordert.</translation>
    </message>
    <message>
        <source>%1: queued (%2 GPUs free in the cluster)</source>
        <translation>%1: wartend (%2 GPUs im Cluster frei)</translation>
    </message>
    <message>
        <source>The cluster has no room for it now: it queues until GPUs free up.</source>
        <translation>Der Cluster hat derzeit keinen Platz: Der Job wartet, bis GPUs frei werden.</translation>
    </message>
    <message>
        <source>Delete job</source>
        <translation>Job löschen</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n job(s)</source>
        <translation>
            <numerusform>%n Job löschen</numerusform>
            <numerusform>%n Jobs löschen</numerusform>
        </translation>
    </message>
    <message>
        <source>No job selected.</source>
        <translation>Kein Job ausgewählt.</translation>
    </message>
    <message>
        <source>Job %1 is not known on %2.</source>
        <translation>Job %1 ist auf %2 nicht bekannt.</translation>
    </message>
    <message>
        <source>Deletes %1 (%2, running on %3): frees %4 GPU(s).</source>
        <translation>Löscht %1 (%2, läuft auf %3): gibt %4 GPU(s) frei.</translation>
    </message>
    <message>
        <source>Deletes %1 (%2, %3).</source>
        <translation>Löscht %1 (%2, %3).</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s)</source>
        <translation>
            <numerusform>%n Job</numerusform>
            <numerusform>%n Jobs</numerusform>
        </translation>
    </message>
    <message>
        <source>deleted, %1 GPU(s) free for queued jobs</source>
        <translation>gelöscht, %1 GPU(s) frei für wartende Jobs</translation>
    </message>
    <message>
        <source>deleted</source>
        <translation>gelöscht</translation>
    </message>
    <message>
        <source>Running work is stopped and its pods are deleted; this cannot be undone.</source>
        <translation>Laufende Arbeit wird beendet und die Pods werden gelöscht; dies kann nicht rückgängig gemacht werden.</translation>
    </message>
    <message>
        <source>Change project quota</source>
        <translation>Projektkontingent ändern</translation>
    </message>
    <message>
        <source>A quota cannot be negative.</source>
        <translation>Ein Kontingent kann nicht negativ sein.</translation>
    </message>
    <message>
        <source>guaranteed %1 GPU(s)</source>
        <translation>garantiert %1 GPU(s)</translation>
    </message>
    <message>
        <source>Sets spec.resources.gpu.quota of KAI queue %1.</source>
        <translation>Setzt spec.resources.gpu.quota der KAI-Queue %1.</translation>
    </message>
    <message>
        <source>Sets requests.nvidia.com/gpu of the ResourceQuota in namespace %1.</source>
        <translation>Setzt requests.nvidia.com/gpu des ResourceQuota in Namespace %1.</translation>
    </message>
    <message>
        <source>The project holds %1 GPU(s): its training jobs above the new quota become preemptible.</source>
        <translation>Das Projekt belegt %1 GPU(s): Seine Training-Jobs über dem neuen Kontingent werden verdrängbar.</translation>
    </message>
    <message>
        <source>Quotas would add up to %1 GPUs while the cluster has %2.</source>
        <translation>Die Kontingente ergäben zusammen %1 GPUs, der Cluster hat aber %2.</translation>
    </message>
    <message>
        <source>%1 is a Kubernetes cluster: it has no volumes to snapshot.</source>
        <translation>%1 ist ein Kubernetes-Cluster: Er hat keine Volumes für Snapshots.</translation>
    </message>
    <message>
        <source>cached commits: %1</source>
        <translation>Commits im Cache: %1</translation>
    </message>
    <message>
        <source>cache target %1: %2</source>
        <translation>Cache-Ziel %1: %2</translation>
    </message>
    <message>
        <source>PVC %1/%2 is %3</source>
        <translation>PVC %1/%2 ist %3</translation>
    </message>
    <message>
        <source>PVC %1/%2 not found on %3</source>
        <translation>PVC %1/%2 auf %3 nicht gefunden</translation>
    </message>
    <message>
        <source>Cache commit</source>
        <translation>Commit in den Cache laden</translation>
    </message>
    <message>
        <source>Clear cached commit</source>
        <translation>Commit aus dem Cache entfernen</translation>
    </message>
    <message>
        <source>Cache target %1 is not configured on %2.</source>
        <translation>Cache-Ziel %1 ist auf %2 nicht konfiguriert.</translation>
    </message>
    <message>
        <source>%1 is not a commit id (64 lower-case hex digits).</source>
        <translation>%1 ist keine Commit-ID (64 Hexadezimalziffern in Kleinbuchstaben).</translation>
    </message>
    <message>
        <source>%1 (volume %2)</source>
        <translation>%1 (Volume %2)</translation>
    </message>
    <message>
        <source>Caching needs the dataset hub, which this program does not run.</source>
        <translation>Caching erfordert den Datensatz-Hub, den dieses Programm nicht ausführt.</translation>
    </message>
    <message>
        <source>%1@%2 is already cached on %3 (ready).</source>
        <translation>%1@%2 ist bereits auf %3 im Cache (bereit).</translation>
    </message>
    <message>
        <source>%1@%2 is already being loaded onto %3.</source>
        <translation>%1@%2 wird bereits auf %3 geladen.</translation>
    </message>
    <message>
        <source>%1@%2 is being cleared from %3; cache it again once that finished.</source>
        <translation>%1@%2 wird gerade aus %3 entfernt; danach erneut in den Cache laden.</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Loads it again; what the failed attempt copied is kept and skipped.</source>
        <translation>Lädt ihn erneut; was der fehlgeschlagene Versuch kopiert hat, bleibt erhalten und wird übersprungen.</translation>
    </message>
    <message>
        <source>The state of cache target %1 has not been read yet.</source>
        <translation>Der Zustand von Cache-Ziel %1 wurde noch nicht gelesen.</translation>
    </message>
    <message>
        <source>Cache target %1 cannot take caches: %2</source>
        <translation>Cache-Ziel %1 kann keine Caches aufnehmen: %2</translation>
    </message>
    <message>
        <source>%1@%2 needs %3 but %4 has %5 free, and clearing every cached commit the policy may evict frees only %6 more.</source>
        <translation>%1@%2 benötigt %3, aber %4 hat %5 frei, und das Entfernen aller Commits im Cache, die die Richtlinie verdrängen darf, gibt nur %6 zusätzlich frei.</translation>
    </message>
    <message>
        <source>not cached on %1</source>
        <translation>nicht im Cache auf %1</translation>
    </message>
    <message>
        <source>ready on %1 (%2)</source>
        <translation>bereit auf %1 (%2)</translation>
    </message>
    <message>
        <source>Starts Job %1/%2 on %3 (image %4) mounting PVC %5.</source>
        <translation>Startet Job %1/%2 auf %3 (Image %4), der PVC %5 einbindet.</translation>
    </message>
    <message numerus="yes">
        <source>Copies %n object(s) (%1) from %2/%3/%4 into %5 on the cache volume.</source>
        <translation>
            <numerusform>Kopiert %n Objekt (%1) aus %2/%3/%4 nach %5 auf dem Cache-Volume.</numerusform>
            <numerusform>Kopiert %n Objekte (%1) aus %2/%3/%4 nach %5 auf dem Cache-Volume.</numerusform>
        </translation>
    </message>
    <message>
        <source>Jobs then train from it by mounting %1 with subPath %2.</source>
        <translation>Jobs trainieren anschließend damit, indem sie %1 mit subPath %2 einbinden.</translation>
    </message>
    <message>
        <source>%1 has %2 free: the least recently used cached commit(s) %3 are cleared first (%4).</source>
        <translation>%1 hat %2 frei: Die am längsten nicht genutzten Commits im Cache (%3) werden zuerst entfernt (%4).</translation>
    </message>
    <message>
        <source>Commit %1 is not cached on %2.</source>
        <translation>Commit %1 ist auf %2 nicht im Cache.</translation>
    </message>
    <message>
        <source>%1@%2 is still loading onto %3.</source>
        <translation>%1@%2 wird noch auf %3 geladen.</translation>
    </message>
    <message>
        <source>%1@%2 is already being cleared.</source>
        <translation>%1@%2 wird bereits entfernt.</translation>
    </message>
    <message>
        <source>%1 on %2 (%3)</source>
        <translation>%1 auf %2 (%3)</translation>
    </message>
    <message>
        <source>cleared, %1 freed</source>
        <translation>entfernt, %1 freigegeben</translation>
    </message>
    <message>
        <source>Starts Job %1/%2 on %3 that deletes %4 from the cache volume.</source>
        <translation>Startet Job %1/%2 auf %3, der %4 vom Cache-Volume löscht.</translation>
    </message>
    <message>
        <source>Policy: %1.</source>
        <translation>Richtlinie: %1.</translation>
    </message>
    <message>
        <source>The commit stays in %1; it can be cached again at any time.</source>
        <translation>Der Commit bleibt in %1; er kann jederzeit erneut in den Cache geladen werden.</translation>
    </message>
    <message>
        <source>Used in the last 7 days by %1.</source>
        <translation>In den letzten 7 Tagen genutzt von %1.</translation>
    </message>
    <message>
        <source>Running job(s) %1 read from it and will fail to find their files.</source>
        <translation>Die laufenden Jobs %1 lesen daraus und werden ihre Dateien nicht mehr finden.</translation>
    </message>
    <message>
        <source>the API server did not answer /version and discovery within %1 s</source>
        <translation>der API-Server hat /version und die Discovery nicht innerhalb von %1 s beantwortet</translation>
    </message>
    <message>
        <source>%1: not listed within %2 s (the list has not answered; still trying)</source>
        <translation>%1: nicht innerhalb von %2 s gelistet (die Liste hat nicht geantwortet; wird weiter versucht)</translation>
    </message>
    <message>
        <source>Its interactive jobs stay within the quota (%1 of %2 GPUs): it starts on idle GPUs although the project&apos;s training jobs run over quota, and it is never preempted.</source>
        <translation>Seine interaktiven Jobs bleiben innerhalb des Kontingents (%1 von %2 GPUs): Er startet auf freien GPUs, obwohl die Training-Jobs des Projekts über Kontingent laufen, und wird nie verdrängt.</translation>
    </message>
    <message>
        <source>The project&apos;s interactive jobs would hold %1 of its %2 guaranteed GPUs; interactive jobs only run within quota: it will queue.</source>
        <translation>Die interaktiven Jobs des Projekts würden %1 seiner %2 garantierten GPUs belegen; interaktive Jobs laufen nur innerhalb des Kontingents: Er wird warten.</translation>
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
        <translation>Volume %1 ist %2 (noch) nicht bekannt.</translation>
    </message>
    <message>
        <source>Snapshot %1 of %2 is not in the loaded snapshot list.</source>
        <translation>Snapshot %1 von %2 ist nicht in der geladenen Snapshot-Liste.</translation>
    </message>
    <message numerus="yes">
        <source>%n snapshot(s)</source>
        <translation>
            <numerusform>%n Snapshot</numerusform>
            <numerusform>%n Snapshots</numerusform>
        </translation>
    </message>
    <message>
        <source>ONTAP takes snapshot &quot;%1&quot; of %2 (%3 used) through an asynchronous job.</source>
        <translation>ONTAP erstellt Snapshot „%1“ von %2 (%3 belegt) über einen asynchronen Job.</translation>
    </message>
    <message>
        <source>It takes no space at first; it then holds the blocks that change (snapshot reserve %1%, %2 used by snapshots now).</source>
        <translation>Er belegt anfangs keinen Platz; danach hält er die geänderten Blöcke (Snapshot-Reserve %1 %, derzeit %2 durch Snapshots belegt).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid snapshot name (letters, digits, _ . -; at most 255 characters).</source>
        <translation>„%1“ ist kein gültiger Snapshot-Name (Buchstaben, Ziffern, _ . -; höchstens 255 Zeichen).</translation>
    </message>
    <message>
        <source>%1 already has a snapshot named &quot;%2&quot;.</source>
        <translation>%1 hat bereits einen Snapshot namens „%2“.</translation>
    </message>
    <message>
        <source>Volume %1 is %2; ONTAP can only snapshot an online volume.</source>
        <translation>Volume %1 ist %2; ONTAP kann nur von einem Online-Volume einen Snapshot erstellen.</translation>
    </message>
    <message>
        <source>ONTAP deletes snapshot &quot;%1&quot; (taken %2) of %3.</source>
        <translation>ONTAP löscht Snapshot „%1“ (erstellt: %2) von %3.</translation>
    </message>
    <message>
        <source>About %1 held only by this snapshot is freed.</source>
        <translation>Etwa %1, die nur dieser Snapshot belegt, werden freigegeben.</translation>
    </message>
    <message>
        <source>The snapshot cannot be recovered once deleted.</source>
        <translation>Der Snapshot kann nach dem Löschen nicht wiederhergestellt werden.</translation>
    </message>
    <message>
        <source>It carries the SnapMirror label &quot;%1&quot;: a protection relationship may expect it.</source>
        <translation>Er trägt das SnapMirror-Label „%1“: Eine Schutzbeziehung erwartet ihn möglicherweise.</translation>
    </message>
    <message>
        <source>FlexClone %1/%2 depends on this snapshot; split or delete the clone first.</source>
        <translation>FlexClone %1/%2 hängt von diesem Snapshot ab; zuerst den Klon abspalten oder löschen.</translation>
    </message>
    <message>
        <source>current contents (%1 used)</source>
        <translation>aktueller Inhalt (%1 belegt)</translation>
    </message>
    <message>
        <source>contents of %1 (%2)</source>
        <translation>Inhalt von %1 (%2)</translation>
    </message>
    <message>
        <source>ONTAP reverts %1 to snapshot &quot;%2&quot; (SnapRestore of the whole volume).</source>
        <translation>ONTAP setzt %1 auf Snapshot „%2“ zurück (SnapRestore des gesamten Volumes).</translation>
    </message>
    <message>
        <source>Everything written to %1 after %2 is lost.</source>
        <translation>Alle Schreibvorgänge auf %1 nach dem Snapshot (%2) gehen verloren.</translation>
    </message>
    <message>
        <source>Newer snapshot &quot;%1&quot; backs FlexClone %2/%3, so ONTAP cannot restore past it; split or delete the clone first.</source>
        <translation>Der neuere Snapshot „%1“ ist Basis von FlexClone %2/%3, daher kann ONTAP nicht hinter ihn zurücksetzen; zuerst den Klon abspalten oder löschen.</translation>
    </message>
    <message numerus="yes">
        <source>%n newer snapshot(s) will be deleted: %1</source>
        <translation>
            <numerusform>%n neuerer Snapshot wird gelöscht: %1</numerusform>
            <numerusform>%n neuere Snapshots werden gelöscht: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Clients that have the volume mounted may need to remount.</source>
        <translation>Clients, die das Volume eingehängt haben, müssen es eventuell neu einhängen.</translation>
    </message>
    <message>
        <source>Volume %1 is %2.</source>
        <translation>Volume %1 ist %2.</translation>
    </message>
    <message>
        <source>no volume %1 in %2</source>
        <translation>kein Volume %1 in %2</translation>
    </message>
    <message>
        <source>FlexClone %1/%2 of %3</source>
        <translation>FlexClone %1/%2 von %3</translation>
    </message>
    <message>
        <source>ONTAP creates FlexClone volume %1/%2 from %3.</source>
        <translation>ONTAP erstellt FlexClone-Volume %1/%2 aus %3.</translation>
    </message>
    <message>
        <source>The clone shares blocks with its parent and uses no space until data diverges.</source>
        <translation>Der Klon teilt Blöcke mit seinem Parent und belegt keinen Platz, bis die Daten abweichen.</translation>
    </message>
    <message>
        <source>Snapshot &quot;%1&quot; cannot be deleted while the clone exists (until it is split).</source>
        <translation>Snapshot „%1“ kann nicht gelöscht werden, solange der Klon existiert (bis er abgespalten ist).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid volume name (a letter or _, then letters, digits or _).</source>
        <translation>„%1“ ist kein gültiger Volume-Name (ein Buchstabe oder _, dann Buchstaben, Ziffern oder _).</translation>
    </message>
    <message>
        <source>SVM %1 already has a volume named %2.</source>
        <translation>SVM %1 hat bereits ein Volume namens %2.</translation>
    </message>
    <message>
        <source>%1 is an ONTAP cluster: it runs no jobs.</source>
        <translation>%1 ist ein ONTAP-Cluster: Er führt keine Jobs aus.</translation>
    </message>
    <message>
        <source>Change QoS policy</source>
        <translation>QoS-Richtlinie ändern</translation>
    </message>
    <message>
        <source>no QoS policy</source>
        <translation>keine QoS-Richtlinie</translation>
    </message>
    <message>
        <source>QoS policy &quot;%1&quot;</source>
        <translation>QoS-Richtlinie „%1“</translation>
    </message>
    <message>
        <source>SVM %1 has no QoS policy &quot;%2&quot; (create it on the cluster first).</source>
        <translation>SVM %1 hat keine QoS-Richtlinie „%2“ (zuerst auf dem Cluster erstellen).</translation>
    </message>
    <message>
        <source>%1 already has %2: nothing changes.</source>
        <translation>%1 hat bereits %2: Es ändert sich nichts.</translation>
    </message>
    <message>
        <source>ONTAP applies QoS policy &quot;%1&quot; to %2 through an asynchronous job; clients stay connected and no data moves.</source>
        <translation>ONTAP weist %2 die QoS-Richtlinie „%1“ über einen asynchronen Job zu; Clients bleiben verbunden und es werden keine Daten verschoben.</translation>
    </message>
    <message>
        <source>The policy is adaptive: its IOPS limit grows with the volume&apos;s size.</source>
        <translation>Die Richtlinie ist adaptiv: Ihr IOPS-Limit wächst mit der Größe des Volumes.</translation>
    </message>
    <message numerus="yes">
        <source>The policy is shared: its limit covers all %n object(s) under it together.</source>
        <translation>
            <numerusform>Die Richtlinie wird gemeinsam genutzt: Ihr Limit gilt für das %n zugeordnete Objekt.</numerusform>
            <numerusform>Die Richtlinie wird gemeinsam genutzt: Ihr Limit gilt für alle %n zugeordneten Objekte zusammen.</numerusform>
        </translation>
    </message>
    <message>
        <source>ONTAP removes the QoS policy from %1: its throughput is no longer limited.</source>
        <translation>ONTAP entfernt die QoS-Richtlinie von %1: Der Durchsatz wird nicht mehr begrenzt.</translation>
    </message>
</context>
<context>
    <name>strata::core::ScheduleService</name>
    <message>
        <source>A schedule needs a source and a volume.</source>
        <translation>Ein Zeitplan benötigt eine Quelle und ein Volume.</translation>
    </message>
    <message>
        <source>Volume %1 is not known to %2.</source>
        <translation>Volume %1 ist %2 nicht bekannt.</translation>
    </message>
    <message>
        <source>The schedule has no start time.</source>
        <translation>Der Zeitplan hat keine Startzeit.</translation>
    </message>
    <message>
        <source>The window must end after it starts.</source>
        <translation>Das Zeitfenster muss nach seinem Beginn enden.</translation>
    </message>
    <message>
        <source>A window needs the level to return to at its end.</source>
        <translation>Ein Zeitfenster benötigt das Servicelevel, zu dem an seinem Ende zurückgekehrt wird.</translation>
    </message>
    <message>
        <source>The time %1 UTC has already passed.</source>
        <translation>Der Zeitpunkt %1 UTC ist bereits vorbei.</translation>
    </message>
    <message>
        <source>The schedule could not be saved in the history store.</source>
        <translation>Der Zeitplan konnte nicht im Verlaufsspeicher gespeichert werden.</translation>
    </message>
    <message>
        <source>failed: the schedule could not be updated in the history store</source>
        <translation>fehlgeschlagen: Der Zeitplan konnte im Verlaufsspeicher nicht aktualisiert werden</translation>
    </message>
</context>
<context>
    <name>strata::core::SecretReentry</name>
    <message>
        <source>S3 secret key</source>
        <translation>geheimer S3-Schlüssel</translation>
    </message>
    <message>
        <source>client secret</source>
        <translation>Client-Geheimnis</translation>
    </message>
    <message>
        <source>token</source>
        <translation>Token</translation>
    </message>
    <message>
        <source>password</source>
        <translation>Passwort</translation>
    </message>
    <message>
        <source>%1 now skips TLS verification</source>
        <translation>%1 überspringt jetzt die TLS-Prüfung</translation>
    </message>
    <message>
        <source>%1 now trusts the system CAs instead of its CA file</source>
        <translation>%1 vertraut jetzt den System-CAs statt seiner CA-Datei</translation>
    </message>
    <message>
        <source>%1 now trusts the CA file %2</source>
        <translation>%1 vertraut jetzt der CA-Datei %2</translation>
    </message>
    <message>
        <source>the %1 of %2 now points at %3</source>
        <translation>%1 von %2 zeigt jetzt auf %3</translation>
    </message>
    <message>
        <source>its default</source>
        <translation>seinen Standardwert</translation>
    </message>
    <message>
        <source>%1, so its %2 must be given again (a stored secret never follows a changed endpoint or TLS setting)</source>
        <translation>%1, daher muss %2 erneut angegeben werden (ein gespeichertes Geheimnis folgt nie einem geänderten Endpunkt oder einer geänderten TLS-Einstellung)</translation>
    </message>
</context>
<context>
    <name>strata::core::SentimentService</name>
    <message>
        <source>Sentiment: %1 is not a StorageGRID source with an S3 endpoint.</source>
        <translation>Stimmung: %1 ist keine StorageGRID-Quelle mit S3-Endpunkt.</translation>
    </message>
    <message>
        <source>Sentiment: the S3 secret for %1 is not set.</source>
        <translation>Stimmung: Der S3-Geheimschlüssel für %1 ist nicht gesetzt.</translation>
    </message>
    <message>
        <source>Sentiment: %1</source>
        <translation>Stimmung: %1</translation>
    </message>
    <message>
        <source>Sentiment: listing %1/%2 failed: %3</source>
        <translation>Stimmung: Auflisten von %1/%2 fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>Sentiment: reading %1 failed: %2</source>
        <translation>Stimmung: Lesen von %1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>%1 line %2: %3</source>
        <translation>%1 Zeile %2: %3</translation>
    </message>
    <message>
        <source>%1: %2 more malformed lines</source>
        <translation>%1: %2 weitere fehlerhafte Zeilen</translation>
    </message>
</context>
<context>
    <name>strata::core::ServiceLevels</name>
    <message>
        <source>no QoS policy</source>
        <translation>keine QoS-Richtlinie</translation>
    </message>
    <message>
        <source>adaptive: %1 peak IOPS/TB</source>
        <translation>adaptiv: %1 Spitzen-IOPS/TB</translation>
    </message>
    <message>
        <source>%1 IOPS</source>
        <translation>%1 IOPS</translation>
    </message>
    <message>
        <source>fixed: no limit</source>
        <translation>fest: kein Limit</translation>
    </message>
    <message>
        <source>fixed: %1</source>
        <translation>fest: %1</translation>
    </message>
    <message>
        <source>manual QoS</source>
        <translation>manuelle QoS</translation>
    </message>
    <message>
        <source>%1 MiB/s per TiB (auto QoS)</source>
        <translation>%1 MiB/s pro TiB (Auto-QoS)</translation>
    </message>
    <message>
        <source>now %1 of %2 IOPS</source>
        <translation>aktuell %1 von %2 IOPS</translation>
    </message>
    <message>
        <source>no observed throughput history yet</source>
        <translation>noch kein beobachteter Durchsatzverlauf</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>IOPS cap %1 → %2</source>
        <translation>IOPS-Obergrenze %1 → %2</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>kein Preis</translation>
    </message>
    <message>
        <source>Cost per month %1 → %2 (rate card)</source>
        <translation>Kosten pro Monat %1 → %2 (Preisliste)</translation>
    </message>
    <message>
        <source>%1 was changed %2 min ago; the rate card&apos;s cool-down is %3 min: possible from %4 UTC.</source>
        <translation>%1 wurde vor %2 min geändert; die Sperrfrist der Preisliste beträgt %3 min: möglich ab %4 UTC.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>p95 %1 of %2 for the last day</source>
        <translation>p95 %1 von %2 am letzten Tag</translation>
    </message>
    <message>
        <source>now %1 of %2</source>
        <translation>aktuell %1 von %2</translation>
    </message>
    <message>
        <source>p95 %1 of %2 for the last day; %3 costs less</source>
        <translation>p95 %1 von %2 am letzten Tag; %3 kostet weniger</translation>
    </message>
    <message>
        <source>observed p95 over the last 24 h: %1</source>
        <translation>beobachteter p95-Wert der letzten 24 h: %1</translation>
    </message>
    <message>
        <source>The new cap is at or below what the volume used (p95 %1): it will be throttled.</source>
        <translation>Die neue Obergrenze liegt bei oder unter der bisherigen Nutzung des Volumes (p95 %1): Es wird gedrosselt.</translation>
    </message>
    <message>
        <source>Throughput cap %1 → %2 (%3)</source>
        <translation>Durchsatzobergrenze %1 → %2 (%3)</translation>
    </message>
</context>
<context>
    <name>strata::core::SourceAdmin</name>
    <message>
        <source>%1 of source %2: give the secret itself; a source changed over the web keeps its secrets in the server&apos;s secret store and cannot name a file, environment variable or keychain entry</source>
        <translation>%1 der Quelle %2: das Geheimnis selbst angeben; eine über das Web geänderte Quelle bewahrt ihre Geheimnisse im Geheimnisspeicher des Servers auf und kann keine Datei, Umgebungsvariable und keinen Schlüsselbundeintrag nennen</translation>
    </message>
    <message>
        <source>source %1 would use a kubeconfig file of the server; over the web give the API server&apos;s url and a token (only the server&apos;s config file can name a kubeconfig)</source>
        <translation>Quelle %1 würde eine kubeconfig-Datei des Servers verwenden; über das Web die URL des API-Servers und ein Token angeben (nur die Konfigurationsdatei des Servers kann eine kubeconfig nennen)</translation>
    </message>
    <message>
        <source>source %1 would use the server&apos;s own Azure CLI login; over the web give a service principal&apos;s client secret (only the server&apos;s config file can choose azure_cli)</source>
        <translation>Quelle %1 würde die eigene Azure-CLI-Anmeldung des Servers verwenden; über das Web den geheimen Clientschlüssel eines Dienstprinzipals angeben (nur die Konfigurationsdatei des Servers kann azure_cli wählen)</translation>
    </message>
    <message>
        <source>Enter a name.</source>
        <translation>Namen eingeben.</translation>
    </message>
    <message>
        <source>The name may only contain letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;.</source>
        <translation>Der Name darf nur Buchstaben, Ziffern, &apos;.&apos;, &apos;_&apos; und &apos;-&apos; enthalten.</translation>
    </message>
    <message>
        <source>&quot;kubeconfig_in_secret&quot; needs a &quot;password&quot; reference holding the kubeconfig</source>
        <translation>&quot;kubeconfig_in_secret&quot; braucht eine &quot;password&quot;-Referenz, die die kubeconfig enthält</translation>
    </message>
    <message>
        <source>&quot;kubeconfig&quot; and &quot;kubeconfig_in_secret&quot; exclude each other</source>
        <translation>&quot;kubeconfig&quot; und &quot;kubeconfig_in_secret&quot; schließen einander aus</translation>
    </message>
    <message>
        <source>The URL must look like https://api.cluster.example.com:6443.</source>
        <translation>Die URL muss wie https://api.cluster.example.com:6443 aussehen.</translation>
    </message>
    <message>
        <source>Enter the bearer token.</source>
        <translation>Das Bearer-Token eingeben.</translation>
    </message>
    <message>
        <source>The Prometheus URL must look like http://prometheus.monitoring:9090.</source>
        <translation>Die Prometheus-URL muss wie http://prometheus.monitoring:9090 aussehen.</translation>
    </message>
    <message>
        <source>Enter the subscription id.</source>
        <translation>Die Abonnement-ID eingeben.</translation>
    </message>
    <message>
        <source>The subscription id looks like 00000000-0000-0000-0000-000000000000.</source>
        <translation>Die Abonnement-ID hat die Form 00000000-0000-0000-0000-000000000000.</translation>
    </message>
    <message>
        <source>unknown credential_source &quot;%1&quot; (known: client_secret, azure_cli)</source>
        <translation>unbekannte credential_source &quot;%1&quot; (bekannt: client_secret, azure_cli)</translation>
    </message>
    <message>
        <source>Enter the tenant id.</source>
        <translation>Die Mandanten-ID eingeben.</translation>
    </message>
    <message>
        <source>Enter the client id of the service principal.</source>
        <translation>Die Client-ID des Dienstprinzipals eingeben.</translation>
    </message>
    <message>
        <source>Enter the client secret.</source>
        <translation>Den geheimen Clientschlüssel eingeben.</translation>
    </message>
    <message>
        <source>The authority URL must look like https://login.microsoftonline.com.</source>
        <translation>Die Autoritäts-URL muss wie https://login.microsoftonline.com aussehen.</translation>
    </message>
    <message>
        <source>The ARM URL must look like https://management.azure.com.</source>
        <translation>Die ARM-URL muss wie https://management.azure.com aussehen.</translation>
    </message>
    <message>
        <source>Enter the URL of the grid&apos;s admin node.</source>
        <translation>Die URL des Admin-Nodes des Grids eingeben.</translation>
    </message>
    <message>
        <source>The admin node URL must look like https://admin.datalake.example.</source>
        <translation>Die Admin-Node-URL muss wie https://admin.datalake.example aussehen.</translation>
    </message>
    <message>
        <source>Enter the grid administrator&apos;s username.</source>
        <translation>Den Benutzernamen des Grid-Administrators eingeben.</translation>
    </message>
    <message>
        <source>Enter the password.</source>
        <translation>Passwort eingeben.</translation>
    </message>
    <message>
        <source>&quot;dataset_roots&quot; needs &quot;s3_url&quot; (the S3 endpoint holding the datasets)</source>
        <translation>&quot;dataset_roots&quot; braucht &quot;s3_url&quot; (den S3-Endpunkt mit den Datensätzen)</translation>
    </message>
    <message>
        <source>The S3 URL must look like https://s3.datalake.example:10443.</source>
        <translation>Die S3-URL muss wie https://s3.datalake.example:10443 aussehen.</translation>
    </message>
    <message>
        <source>Enter the S3 access key.</source>
        <translation>Den S3-Zugriffsschlüssel eingeben.</translation>
    </message>
    <message>
        <source>Enter the S3 secret key.</source>
        <translation>Den geheimen S3-Schlüssel eingeben.</translation>
    </message>
    <message>
        <source>Enter at least one dataset root, e.g. datasets/*.</source>
        <translation>Mindestens einen Datensatz-Stammpfad eingeben, z. B. datasets/*.</translation>
    </message>
    <message>
        <source>%1 is not a dataset root: use bucket/*, bucket or bucket/prefix/.</source>
        <translation>%1 ist kein Datensatz-Stammpfad: bucket/*, bucket oder bucket/prefix/ verwenden.</translation>
    </message>
    <message>
        <source>Enter the URL of the cluster management interface.</source>
        <translation>Die URL der Cluster-Management-Schnittstelle eingeben.</translation>
    </message>
    <message>
        <source>The URL must look like https://cluster-mgmt.example.com.</source>
        <translation>Die URL muss wie https://cluster-mgmt.example.com aussehen.</translation>
    </message>
    <message>
        <source>Enter a username.</source>
        <translation>Benutzernamen eingeben.</translation>
    </message>
    <message>
        <source>&quot;kubeconfig_in_secret&quot; is only for kubernetes sources</source>
        <translation>&quot;kubeconfig_in_secret&quot; gibt es nur für Kubernetes-Quellen</translation>
    </message>
    <message>
        <source>the s3_* keys are only for storagegrid sources</source>
        <translation>die s3_*-Schlüssel gibt es nur für StorageGRID-Quellen</translation>
    </message>
    <message>
        <source>&quot;dataset_roots&quot; is only for storagegrid and ontap sources</source>
        <translation>&quot;dataset_roots&quot; gibt es nur für StorageGRID- und ONTAP-Quellen</translation>
    </message>
    <message>
        <source>A source named %1 already exists.</source>
        <translation>Eine Quelle namens %1 existiert bereits.</translation>
    </message>
    <message>
        <source>The configuration could not be saved: %1</source>
        <translation>Die Konfiguration konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>The S3 secret key of %1 could not be stored: %2</source>
        <translation>Der geheime S3-Schlüssel von %1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>The password of %1 could not be stored: %2</source>
        <translation>Das Passwort von %1 konnte nicht gespeichert werden: %2</translation>
    </message>
    <message>
        <source>no source &quot;%1&quot;</source>
        <translation>keine Quelle &quot;%1&quot;</translation>
    </message>
    <message>
        <source>Source %1 was removed, but its password could not be deleted from the keychain: %2</source>
        <translation>Quelle %1 wurde entfernt, aber ihr Passwort konnte nicht aus dem Schlüsselbund gelöscht werden: %2</translation>
    </message>
    <message>
        <source>Source %1 was removed, but its S3 secret key could not be deleted from the keychain: %2</source>
        <translation>Quelle %1 wurde entfernt, aber ihr geheimer S3-Schlüssel konnte nicht aus dem Schlüsselbund gelöscht werden: %2</translation>
    </message>
</context>
<context>
    <name>strata::core::StorageGridSource</name>
    <message>
        <source>The S3 side of %1 is not connected (no S3 secret).</source>
        <translation>Die S3-Seite von %1 ist nicht verbunden (kein geheimer S3-Schlüssel).</translation>
    </message>
    <message>
        <source>Dataset %1 is not known to %2.</source>
        <translation>Datensatz %1 ist %2 nicht bekannt.</translation>
    </message>
    <message>
        <source>Both commits must be commits of %1.</source>
        <translation>Beide Commits müssen zu %1 gehören.</translation>
    </message>
    <message>
        <source>%1 cannot run on StorageGRID source %2.</source>
        <translation>%1 kann nicht auf der StorageGRID-Quelle %2 ausgeführt werden.</translation>
    </message>
    <message>
        <source>Commit dataset</source>
        <translation>Commit für Datensatz erstellen</translation>
    </message>
    <message>
        <source>1 commit</source>
        <translation>1 Commit</translation>
    </message>
    <message>
        <source>%1 commits</source>
        <translation>%1 Commits</translation>
    </message>
    <message>
        <source>Lists %1 (object versions when the bucket is versioned) and writes a manifest of every object to %2.</source>
        <translation>Listet %1 auf (Objektversionen, wenn der Bucket versioniert ist) und schreibt ein Manifest aller Objekte nach %2.</translation>
    </message>
    <message>
        <source>This is the dataset&apos;s first commit.</source>
        <translation>Dies ist der erste Commit des Datensatzes.</translation>
    </message>
    <message>
        <source>Parent: %1 (%2 objects, %3).</source>
        <translation>Vorgänger: %1 (%2 Objekte, %3).</translation>
    </message>
    <message>
        <source>Message: &quot;%1&quot;</source>
        <translation>Nachricht: „%1“</translation>
    </message>
    <message>
        <source>A commit needs a message.</source>
        <translation>Ein Commit benötigt eine Nachricht.</translation>
    </message>
    <message>
        <source>The message is longer than %1 bytes.</source>
        <translation>Die Nachricht ist länger als %1 Byte.</translation>
    </message>
    <message>
        <source>The user name is longer than %1 bytes.</source>
        <translation>Der Benutzername ist länger als %1 Byte.</translation>
    </message>
</context>
<context>
    <name>strata::core::Timeline</name>
    <message>
        <source>Create snapshot</source>
        <translation>Snapshot erstellen</translation>
    </message>
    <message>
        <source>Delete snapshot</source>
        <translation>Snapshot löschen</translation>
    </message>
    <message>
        <source>Restore snapshot</source>
        <translation>Snapshot wiederherstellen</translation>
    </message>
    <message>
        <source>Clone volume</source>
        <translation>Volume klonen</translation>
    </message>
    <message>
        <source>Submit job</source>
        <translation>Job übermitteln</translation>
    </message>
    <message>
        <source>Delete jobs</source>
        <translation>Jobs löschen</translation>
    </message>
    <message>
        <source>Change project quota</source>
        <translation>Projektkontingent ändern</translation>
    </message>
    <message>
        <source>Change service level</source>
        <translation>Servicelevel ändern</translation>
    </message>
    <message>
        <source>Commit dataset</source>
        <translation>Commit für Datensatz erstellen</translation>
    </message>
    <message>
        <source>Cache commit</source>
        <translation>Commit in den Cache laden</translation>
    </message>
    <message>
        <source>Evict cached commit</source>
        <translation>Commit aus dem Cache verdrängen</translation>
    </message>
    <message>
        <source>Alert fired: %1</source>
        <translation>Warnmeldung ausgelöst: %1</translation>
    </message>
    <message>
        <source>Alert resolved: %1</source>
        <translation>Warnmeldung behoben: %1</translation>
    </message>
    <message>
        <source>Job queued</source>
        <translation>Job wartet</translation>
    </message>
    <message>
        <source>%1 (%2, %3 GPUs) queued in project %4</source>
        <translation>%1 (%2, %3 GPUs) wartet in Projekt %4</translation>
    </message>
    <message>
        <source>Job started</source>
        <translation>Job gestartet</translation>
    </message>
    <message>
        <source>%1 (%2 GPUs) started</source>
        <translation>%1 (%2 GPUs) gestartet</translation>
    </message>
    <message>
        <source>%1 (%2 GPUs) started on %3</source>
        <translation>%1 (%2 GPUs) auf %3 gestartet</translation>
    </message>
    <message>
        <source>Job preempted</source>
        <translation>Job verdrängt</translation>
    </message>
    <message>
        <source>%1 of project %2 gave its %3 GPUs back</source>
        <translation>%1 von Projekt %2 hat seine %3 GPUs zurückgegeben</translation>
    </message>
    <message>
        <source>%1 of project %2 gave its %3 GPUs back: %4</source>
        <translation>%1 von Projekt %2 hat seine %3 GPUs zurückgegeben: %4</translation>
    </message>
    <message>
        <source>Job failed</source>
        <translation>Job fehlgeschlagen</translation>
    </message>
    <message>
        <source>Job finished</source>
        <translation>Job beendet</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 succeeded</source>
        <translation>%1 erfolgreich</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>service level %1 → %2</source>
        <translation>Servicelevel %1 → %2</translation>
    </message>
    <message>
        <source>Service level changed</source>
        <translation>Servicelevel geändert</translation>
    </message>
    <message>
        <source>capacity pool %1 → %2</source>
        <translation>Kapazitätspool %1 → %2</translation>
    </message>
    <message>
        <source>aggregate %1 → %2</source>
        <translation>Aggregat %1 → %2</translation>
    </message>
    <message>
        <source>Capacity pool changed</source>
        <translation>Kapazitätspool geändert</translation>
    </message>
    <message>
        <source>Volume moved</source>
        <translation>Volume verschoben</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>QoS policy %1 → %2</source>
        <translation>QoS-Richtlinie %1 → %2</translation>
    </message>
    <message>
        <source>QoS policy changed</source>
        <translation>QoS-Richtlinie geändert</translation>
    </message>
    <message>
        <source>%1/%2: %3</source>
        <translation>%1/%2: %3</translation>
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
        <translation>Diese Aktion kann nicht wiederholt werden: Ihre Quelle ist nicht verbunden oder sie ist nicht fehlgeschlagen.</translation>
    </message>
    <message>
        <source>source %1 is not connected.</source>
        <translation>Quelle %1 ist nicht verbunden.</translation>
    </message>
    <message>
        <source>Capacity history is not recorded in this session.</source>
        <translation>Der Kapazitätsverlauf wird in dieser Sitzung nicht aufgezeichnet.</translation>
    </message>
    <message>
        <source>Capacity history is unavailable: %1</source>
        <translation>Kapazitätsverlauf nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>The volume is no longer known to %1.</source>
        <translation>Das Volume ist %1 nicht mehr bekannt.</translation>
    </message>
    <message>
        <source>The snapshot is no longer in the list of %1.</source>
        <translation>Der Snapshot ist nicht mehr in der Liste von %1.</translation>
    </message>
    <message>
        <source>The action was not started: %1</source>
        <translation>Die Aktion wurde nicht gestartet: %1</translation>
    </message>
    <message>
        <source>%1 started: %2</source>
        <translation>%1 gestartet: %2</translation>
    </message>
    <message>
        <source>%1 succeeded: %2</source>
        <translation>%1 erfolgreich: %2</translation>
    </message>
    <message>
        <source>%1 failed: %2. %3</source>
        <translation>%1 fehlgeschlagen: %2. %3</translation>
    </message>
    <message>
        <source>Select it in the Activity panel to retry.</source>
        <translation>Zum Wiederholen im Aktivitätsbereich auswählen.</translation>
    </message>
    <message>
        <source>No password is stored for this source.</source>
        <translation>Für diese Quelle ist kein Passwort gespeichert.</translation>
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
        <source>Source %1 updated.</source>
        <translation>Quelle %1 aktualisiert.</translation>
    </message>
    <message>
        <source>Source %1 added.</source>
        <translation>Quelle %1 hinzugefügt.</translation>
    </message>
    <message>
        <source>Source %1 removed.</source>
        <translation>Quelle %1 entfernt.</translation>
    </message>
    <message>
        <source>The configuration could not be saved: %1</source>
        <translation>Die Konfiguration konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>GPU allocation history is not recorded in this session.</source>
        <translation>Der GPU-Belegungsverlauf wird in dieser Sitzung nicht aufgezeichnet.</translation>
    </message>
    <message>
        <source>GPU allocation history is unavailable: %1</source>
        <translation>GPU-Belegungsverlauf nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>&amp;Demo</source>
        <translation>De&amp;mo</translation>
    </message>
    <message>
        <source>TR-4858 scenario played to the end</source>
        <translation>TR-4858-Szenario vollständig abgespielt</translation>
    </message>
    <message>
        <source>Play step %1 of %2: %3</source>
        <translation>Schritt %1 von %2 abspielen: %3</translation>
    </message>
    <message>
        <source>The schedule was not saved: %1</source>
        <translation>Der Zeitplan wurde nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Scheduled #%1: %2 to %3.</source>
        <translation>#%1 eingeplant: %2 auf %3.</translation>
    </message>
    <message>
        <source>Schedule #%1 removed.</source>
        <translation>Zeitplan #%1 entfernt.</translation>
    </message>
    <message>
        <source>Rate card saved.</source>
        <translation>Preisliste gespeichert.</translation>
    </message>
    <message>
        <source>Throughput history is not recorded in this session.</source>
        <translation>Der Durchsatzverlauf wird in dieser Sitzung nicht aufgezeichnet.</translation>
    </message>
    <message>
        <source>The AKS cluster is no longer listed by %1.</source>
        <translation>Der AKS-Cluster wird von %1 nicht mehr aufgeführt.</translation>
    </message>
    <message>
        <source>A source named %1 already exists.</source>
        <translation>Eine Quelle namens %1 existiert bereits.</translation>
    </message>
    <message>
        <source>Fetching the kubeconfig of %1…</source>
        <translation>Kubeconfig von %1 wird abgerufen…</translation>
    </message>
    <message>
        <source>The kubeconfig of %1 could not be fetched: %2</source>
        <translation>Die Kubeconfig von %1 konnte nicht abgerufen werden: %2</translation>
    </message>
    <message>
        <source>the answer was empty</source>
        <translation>die Antwort war leer</translation>
    </message>
    <message>
        <source>commits of %1 are snapshots; compare them on the Volumes page.</source>
        <translation>Commits von %1 sind Snapshots; diese auf der Seite „Volumes“ vergleichen.</translation>
    </message>
    <message>
        <source>Strata — support bundle from %1 (read-only)</source>
        <translation>Strata — Support-Bundle von %1 (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Support bundle from %1 (%2) — read-only snapshot</source>
        <translation>Support-Bundle von %1 (%2) — schreibgeschützte Momentaufnahme</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet…</translation>
    </message>
    <message>
        <source>Cannot open the support bundle %1: %2</source>
        <translation>Das Support-Bundle %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>Cannot start a window for the support bundle %1.</source>
        <translation>Für das Support-Bundle %1 kann kein Fenster geöffnet werden.</translation>
    </message>
    <message>
        <source>Comparing support bundles…</source>
        <translation>Support-Bundles werden verglichen…</translation>
    </message>
    <message>
        <source>Cannot compare the support bundles: %1</source>
        <translation>Die Support-Bundles können nicht verglichen werden: %1</translation>
    </message>
    <message>
        <source>A chargeback needs the history store, which is not open in this session.</source>
        <translation>Eine Kostenverrechnung braucht den Verlaufsspeicher, der in dieser Sitzung nicht geöffnet ist.</translation>
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
    <name>strata::models::AksClusterModel</name>
    <message>
        <source>AKS cluster</source>
        <translation>AKS-Cluster</translation>
    </message>
    <message>
        <source>Azure source</source>
        <translation>Azure-Quelle</translation>
    </message>
    <message>
        <source>Resource group</source>
        <translation>Ressourcengruppe</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Standort</translation>
    </message>
    <message>
        <source>Kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message>
        <source>Node pools</source>
        <translation>Node-Pools</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Added as</source>
        <translation>Hinzugefügt als</translation>
    </message>
</context>
<context>
    <name>strata::models::BucketModel</name>
    <message>
        <source>Enabled</source>
        <translation>Aktiviert</translation>
    </message>
    <message>
        <source>Off</source>
        <translation>Aus</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>Bucket</translation>
    </message>
    <message>
        <source>Tenant</source>
        <translation>Mandant</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>Region</translation>
    </message>
    <message>
        <source>Versioning</source>
        <translation>Versionierung</translation>
    </message>
    <message>
        <source>Objects</source>
        <translation>Objekte</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Quota</source>
        <translation>Kontingent</translation>
    </message>
    <message>
        <source>Growth (7 days)</source>
        <translation>Wachstum (7 Tage)</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
</context>
<context>
    <name>strata::models::CacheTargetModel</name>
    <message>
        <source>evict after 1 day unused, LRU above %1 %</source>
        <translation>nach 1 Tag ohne Nutzung verdrängen, LRU über %1 %</translation>
    </message>
    <message>
        <source>evict after %1 days unused, LRU above %2 %</source>
        <translation>nach %1 Tagen ohne Nutzung verdrängen, LRU über %2 %</translation>
    </message>
    <message>
        <source>%1 of %2 used, %3 by cached commits; high watermark %4 %</source>
        <translation>%1 von %2 belegt, %3 durch Commits im Cache; Hochwassermarke %4 %</translation>
    </message>
    <message>
        <source>Claim phase: %1</source>
        <translation>Claim-Phase: %1</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Claim</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>Belegung</translation>
    </message>
    <message>
        <source>Capacity</source>
        <translation>Kapazität</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>Cached</source>
        <translation>Im Cache</translation>
    </message>
    <message>
        <source>Commits</source>
        <translation>Commits</translation>
    </message>
    <message>
        <source>Eviction policy</source>
        <translation>Verdrängungsrichtlinie</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>strata::models::CachedCommitModel</name>
    <message>
        <source>evicting</source>
        <translation>wird verdrängt</translation>
    </message>
    <message>
        <source>evicts now</source>
        <translation>Verdrängung jetzt</translation>
    </message>
    <message>
        <source>evicts in 1 day</source>
        <translation>Verdrängung in 1 Tag</translation>
    </message>
    <message>
        <source>evicts in %1 days</source>
        <translation>Verdrängung in %1 Tagen</translation>
    </message>
    <message>
        <source>evicts in 1 hour</source>
        <translation>Verdrängung in 1 Stunde</translation>
    </message>
    <message>
        <source>evicts in %1 hours</source>
        <translation>Verdrängung in %1 Stunden</translation>
    </message>
    <message>
        <source>evicts in 1 minute</source>
        <translation>Verdrängung in 1 Minute</translation>
    </message>
    <message>
        <source>evicts in %1 minutes</source>
        <translation>Verdrängung in %1 Minuten</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>Job %1</translation>
    </message>
    <message>
        <source>Path on the volume: %1</source>
        <translation>Pfad auf dem Volume: %1</translation>
    </message>
    <message>
        <source>%1 % · %2/%3 objects · %4/%5</source>
        <translation>%1 % · %2/%3 Objekte · %4/%5</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>Commit</translation>
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
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Last used</source>
        <translation>Zuletzt genutzt</translation>
    </message>
    <message>
        <source>Used by</source>
        <translation>Genutzt von</translation>
    </message>
    <message>
        <source>Eviction</source>
        <translation>Verdrängung</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>%1 % · %2/%3</source>
        <translation>%1 % · %2/%3</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
</context>
<context>
    <name>strata::models::CommitModel</name>
    <message>
        <source>requested</source>
        <translation>angefordert</translation>
    </message>
    <message>
        <source>loading</source>
        <translation>wird geladen</translation>
    </message>
    <message>
        <source>loading %1 %</source>
        <translation>wird geladen, %1 %</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>bereit</translation>
    </message>
    <message>
        <source>evicting</source>
        <translation>wird verdrängt</translation>
    </message>
    <message>
        <source>evicted</source>
        <translation>verdrängt</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>Commit</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
    </message>
    <message>
        <source>Author</source>
        <translation>Autor</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Objects</source>
        <translation>Objekte</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>Vorgänger</translation>
    </message>
    <message>
        <source>Cached</source>
        <translation>Im Cache</translation>
    </message>
    <message>
        <source>The source does not report objects for a snapshot</source>
        <translation>Die Quelle meldet keine Objekte für einen Snapshot</translation>
    </message>
    <message>
        <source>The source does not report the size of a snapshot</source>
        <translation>Die Quelle meldet die Größe eines Snapshots nicht</translation>
    </message>
</context>
<context>
    <name>strata::models::DatasetModel</name>
    <message>
        <source>No commit yet</source>
        <translation>Noch kein Commit</translation>
    </message>
    <message>
        <source>Head commit %1</source>
        <translation>Head-Commit %1</translation>
    </message>
    <message numerus="yes">
        <source>%n ready, %1 loading</source>
        <translation>
            <numerusform>%n bereit, %1 ladend</numerusform>
            <numerusform>%n bereit, %1 ladend</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (+%2 loading)</source>
        <translation>%1 (+%2 ladend)</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>Speicherort</translation>
    </message>
    <message>
        <source>Cached commits</source>
        <translation>Commits im Cache</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Objects</source>
        <translation>Objekte</translation>
    </message>
    <message>
        <source>Commits</source>
        <translation>Commits</translation>
    </message>
    <message>
        <source>Last active</source>
        <translation>Zuletzt aktiv</translation>
    </message>
    <message>
        <source>Prefix</source>
        <translation>Präfix</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>Bucket</translation>
    </message>
    <message>
        <source>ONTAP volume</source>
        <translation>ONTAP-Volume</translation>
    </message>
    <message>
        <source>A volume: the source reports its used bytes, not objects</source>
        <translation>Ein Volume: Die Quelle meldet seine belegten Bytes, keine Objekte</translation>
    </message>
</context>
<context>
    <name>strata::models::ForecastTableModel</name>
    <message>
        <source>%1/day</source>
        <translation>%1/Tag</translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n days</source>
        <translation>
            <numerusform>%n Tag</numerusform>
            <numerusform>%n Tagen</numerusform>
        </translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Aggregate</source>
        <translation>Aggregat</translation>
    </message>
    <message>
        <source>Capacity pool</source>
        <translation>Kapazitätspool</translation>
    </message>
    <message>
        <source>Bucket</source>
        <translation>Bucket</translation>
    </message>
    <message>
        <source>Tenant</source>
        <translation>Mandant</translation>
    </message>
    <message>
        <source>Cache target</source>
        <translation>Cache-Ziel</translation>
    </message>
    <message>
        <source>Growing</source>
        <translation>Wächst</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>Voll</translation>
    </message>
    <message>
        <source>No trend</source>
        <translation>Kein Trend</translation>
    </message>
    <message>
        <source>Too little data</source>
        <translation>Zu wenige Daten</translation>
    </message>
    <message>
        <source>%1 · no limit</source>
        <translation>%1 · ohne Grenze</translation>
    </message>
    <message>
        <source>%1 / %2 (%3)</source>
        <translation>%1 / %2 (%3)</translation>
    </message>
    <message>
        <source>1 sample</source>
        <translation>1 Messwert</translation>
    </message>
    <message>
        <source>%1 samples</source>
        <translation>%1 Messwerte</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>95 %: %1 to %2</source>
        <translation>95 %: %1 bis %2</translation>
    </message>
    <message>
        <source>Full since %1</source>
        <translation>Voll seit %1</translation>
    </message>
    <message>
        <source>Full at %1; 95 % between %2 and %3</source>
        <translation>Voll am %1; mit 95 % zwischen %2 und %3</translation>
    </message>
    <message>
        <source>never</source>
        <translation>nie</translation>
    </message>
    <message>
        <source>Full at %1</source>
        <translation>Voll am %1</translation>
    </message>
    <message>
        <source>%1 of planned evictions counted in</source>
        <translation>%1 geplanter Verdrängungen eingerechnet</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>No samples yet</source>
        <translation>Noch keine Messwerte</translation>
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
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Used / capacity</source>
        <translation>Belegt / Kapazität</translation>
    </message>
    <message>
        <source>Growth / day</source>
        <translation>Wachstum / Tag</translation>
    </message>
    <message>
        <source>Full in</source>
        <translation>Voll in</translation>
    </message>
    <message>
        <source>Trend</source>
        <translation>Trend</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
</context>
<context>
    <name>strata::models::GridAlertModel</name>
    <message>
        <source>%1 (silenced)</source>
        <translation>%1 (stummgeschaltet)</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>Warnmeldung</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>Standort</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Resolved</source>
        <translation>Behoben</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
</context>
<context>
    <name>strata::models::GridNodeModel</name>
    <message>
        <source>Admin node (primary)</source>
        <translation>Admin-Node (primär)</translation>
    </message>
    <message>
        <source>Admin node</source>
        <translation>Admin-Node</translation>
    </message>
    <message>
        <source>Storage node</source>
        <translation>Storage-Node</translation>
    </message>
    <message>
        <source>Gateway node</source>
        <translation>Gateway-Node</translation>
    </message>
    <message>
        <source>Archive node</source>
        <translation>Archiv-Node</translation>
    </message>
    <message>
        <source>administratively down</source>
        <translation>administrativ deaktiviert</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Site</source>
        <translation>Standort</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
</context>
<context>
    <name>strata::models::JobTableModel</name>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>Verdrängt</translation>
    </message>
    <message>
        <source>ContainerCreating</source>
        <translation>ContainerCreating</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
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
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
    <message>
        <source>%1d %2h</source>
        <translation>%1 T %2 h</translation>
    </message>
    <message>
        <source>%1h %2m</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1m %2s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>GPU %1 on %2</source>
        <translation>GPU %1 auf %2</translation>
    </message>
    <message>
        <source>Interactive</source>
        <translation>Interaktiv</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Yes</source>
        <translation>Ja</translation>
    </message>
    <message>
        <source>No</source>
        <translation>Nein</translation>
    </message>
    <message>
        <source>GPUs allocated while the job holds them, else GPUs requested; fractions share one GPU</source>
        <translation>Zugewiesene GPUs, solange der Job sie hält, sonst angeforderte GPUs; Bruchteile teilen sich eine GPU</translation>
    </message>
    <message>
        <source>Place in its project&apos;s queue: first come, first served; preempted jobs keep their place</source>
        <translation>Platz in der Warteschlange des Projekts: wer zuerst kommt, läuft zuerst; verdrängte Jobs behalten ihren Platz</translation>
    </message>
    <message>
        <source>Time since the job was submitted, while it waits</source>
        <translation>Zeit seit der Übermittlung des Jobs, während er wartet</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>Alter</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Node</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>Created by CLI</source>
        <translation>Per CLI erstellt</translation>
    </message>
    <message>
        <source>Run time</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>GPU util.</source>
        <translation>GPU-Ausl.</translation>
    </message>
    <message>
        <source>Wait time</source>
        <translation>Wartezeit</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Queue #</source>
        <translation>Warteschl. #</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
</context>
<context>
    <name>strata::models::ProjectTableModel</name>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>%1 GPUs allocated of a %2 GPU quota: %3 in quota, %4 over quota</source>
        <translation>%1 GPUs von einem Kontingent von %2 GPUs zugewiesen: %3 im Kontingent, %4 über Kontingent</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Training jobs running over the quota may be preempted when another project reclaims its quota</source>
        <translation>Training-Jobs, die über dem Kontingent laufen, können verdrängt werden, wenn ein anderes Projekt sein Kontingent zurückfordert</translation>
    </message>
    <message>
        <source>Water-filling share of the cluster from quotas and current demand</source>
        <translation>Water-Filling-Anteil am Cluster aus Kontingenten und aktuellem Bedarf</translation>
    </message>
    <message>
        <source>Namespace %1</source>
        <translation>Namespace %1</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>Allocated/Quota</source>
        <translation>Zugewiesen/Kontingent</translation>
    </message>
    <message>
        <source>Quota</source>
        <translation>Kontingent</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Zugewiesen</translation>
    </message>
    <message>
        <source>In quota</source>
        <translation>Im Kontingent</translation>
    </message>
    <message>
        <source>Over quota</source>
        <translation>Über Kontingent</translation>
    </message>
    <message>
        <source>Pending GPUs</source>
        <translation>Ausstehende GPUs</translation>
    </message>
    <message>
        <source>Fair share</source>
        <translation>Fair Share</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>Wartend</translation>
    </message>
    <message>
        <source>GPU util.</source>
        <translation>GPU-Ausl.</translation>
    </message>
    <message>
        <source>Idle allocated</source>
        <translation>Ungenutzt zugewiesen</translation>
    </message>
</context>
<context>
    <name>strata::models::ServiceLevelTableModel</name>
    <message>
        <source>At cap – raise?</source>
        <translation>An der Obergrenze – anheben?</translation>
    </message>
    <message>
        <source>Far below – lower?</source>
        <translation>Weit darunter – senken?</translation>
    </message>
    <message>
        <source>%1 IOPS</source>
        <translation>%1 IOPS</translation>
    </message>
    <message>
        <source>(no policy)</source>
        <translation>(keine Richtlinie)</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>SVM / pool</source>
        <translation>SVM / Pool</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Servicelevel</translation>
    </message>
    <message>
        <source>Level detail</source>
        <translation>Servicelevel-Details</translation>
    </message>
    <message>
        <source>Cap</source>
        <translation>Obergrenze</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>Beobachtet</translation>
    </message>
    <message>
        <source>p95 24 h</source>
        <translation>p95 24 h</translation>
    </message>
    <message>
        <source>Cap use</source>
        <translation>Ausschöpfung</translation>
    </message>
    <message>
        <source>Cost/month</source>
        <translation>Kosten/Monat</translation>
    </message>
    <message>
        <source>Flag</source>
        <translation>Hinweis</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Letzte Änderung</translation>
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
    <name>strata::models::TenantModel</name>
    <message>
        <source>Capabilities: %1</source>
        <translation>Funktionen: %1</translation>
    </message>
    <message>
        <source>Tenant</source>
        <translation>Mandant</translation>
    </message>
    <message>
        <source>Account id</source>
        <translation>Konto-ID</translation>
    </message>
    <message>
        <source>Buckets</source>
        <translation>Buckets</translation>
    </message>
    <message>
        <source>Objects</source>
        <translation>Objekte</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Daten</translation>
    </message>
    <message>
        <source>Quota</source>
        <translation>Kontingent</translation>
    </message>
    <message>
        <source>Quota used</source>
        <translation>Kontingent belegt</translation>
    </message>
    <message>
        <source>Growth (7 days)</source>
        <translation>Wachstum (7 Tage)</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
</context>
<context>
    <name>strata::models::TimelineModel</name>
    <message>
        <source>ONTAP</source>
        <translation>ONTAP</translation>
    </message>
    <message>
        <source>StorageGRID</source>
        <translation>StorageGRID</translation>
    </message>
    <message>
        <source>Azure</source>
        <translation>Azure</translation>
    </message>
    <message>
        <source>Kubernetes</source>
        <translation>Kubernetes</translation>
    </message>
    <message>
        <source>Strata</source>
        <translation>Strata</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>Ereignis</translation>
    </message>
    <message>
        <source>Alert</source>
        <translation>Warnmeldung</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Vorgang</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>Cache</translation>
    </message>
    <message>
        <source>Service level</source>
        <translation>Servicelevel</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Kritisch</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>Info</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>Schweregrad</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>Kategorie</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Nachricht</translation>
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
        <translation>FlexClone von %1</translation>
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
    <message>
        <source>Submit</source>
        <translation>Übermitteln</translation>
    </message>
    <message>
        <source>Delete this job; its running work stops</source>
        <translation>Diesen Job löschen; seine laufende Arbeit wird beendet</translation>
    </message>
    <message numerus="yes">
        <source>Delete these %n jobs; their running work stops</source>
        <translation>
            <numerusform>Diesen %n Job löschen; seine laufende Arbeit wird beendet</numerusform>
            <numerusform>Diese %n Jobs löschen; ihre laufende Arbeit wird beendet</numerusform>
        </translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> GPUs</translation>
    </message>
    <message>
        <source>Guaranteed &amp;GPUs:</source>
        <translation>Garantierte &amp;GPUs:</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Create pool %1 of %2 TiB (%3) first</source>
        <translation>Zuerst Pool %1 mit %2 TiB (%3) erstellen</translation>
    </message>
    <message>
        <source>A capacity pool is billed for its whole size, used or not.</source>
        <translation>Ein Kapazitätspool wird für seine gesamte Größe abgerechnet, ob belegt oder nicht.</translation>
    </message>
    <message>
        <source>Change level</source>
        <translation>Servicelevel ändern</translation>
    </message>
    <message>
        <source>What changed in the data</source>
        <translation>Was sich in den Daten geändert hat</translation>
    </message>
    <message>
        <source>Commit &amp;message:</source>
        <translation>Commit-&amp;Nachricht:</translation>
    </message>
    <message>
        <source>Commit</source>
        <translation>Commit erstellen</translation>
    </message>
    <message>
        <source>Cache</source>
        <translation>In Cache laden</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Entfernen</translation>
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
        <translation>Die fehlgeschlagene Aktion erneut ausführen; Strata prüft zuerst, ob sie bereits wirksam wurde.</translation>
    </message>
</context>
<context>
    <name>strata::views::AllocationHistoryChart</name>
    <message>
        <source>GPUs allocated (dashed: quota)</source>
        <translation>Zugewiesene GPUs (gestrichelt: Kontingent)</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>GPU-Auslastung</translation>
    </message>
    <message>
        <source>No cluster selected.</source>
        <translation>Kein Cluster ausgewählt.</translation>
    </message>
    <message>
        <source>No GPU allocation recorded for this cluster yet.</source>
        <translation>Für diesen Cluster wurde noch keine GPU-Belegung aufgezeichnet.</translation>
    </message>
    <message>
        <source>%1 quota</source>
        <translation>Kontingent %1</translation>
    </message>
    <message>
        <source>GPUs allocated (dashed: quota) · collecting since %1</source>
        <translation>Zugewiesene GPUs (gestrichelt: Kontingent) · Daten seit %1</translation>
    </message>
    <message>
        <source>GPU utilization · none measured in this range</source>
        <translation>GPU-Auslastung · in diesem Zeitraum nicht gemessen</translation>
    </message>
    <message>
        <source>GPU utilization · measured since %1</source>
        <translation>GPU-Auslastung · gemessen seit %1</translation>
    </message>
</context>
<context>
    <name>strata::views::BundleDiffDialog</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Compare support bundles</source>
        <translation>Support-Bundles vergleichen</translation>
    </message>
    <message>
        <source>From %1, %2
to %3, %4</source>
        <translation>Von %1, %2
bis %3, %4</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>No differences</source>
        <translation>Keine Unterschiede</translation>
    </message>
    <message>
        <source>%1: %2 appeared, %3 disappeared, %4 changed</source>
        <translation>%1: %2 hinzugekommen, %3 verschwunden, %4 geändert</translation>
    </message>
    <message>
        <source>Appeared</source>
        <translation>Hinzugekommen</translation>
    </message>
    <message>
        <source>Disappeared</source>
        <translation>Verschwunden</translation>
    </message>
</context>
<context>
    <name>strata::views::CacheTargetsPage</name>
    <message>
        <source>Select a cache target to see what fills it.</source>
        <translation>Ein Cache-Ziel auswählen, um zu sehen, was es belegt.</translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation>En&amp;tfernen</translation>
    </message>
    <message>
        <source>Remove the selected cached commit from this volume</source>
        <translation>Den ausgewählten Commit im Cache von diesem Volume entfernen</translation>
    </message>
    <message>
        <source>No cache targets. Add them under &quot;cache_targets&quot; in the configuration.</source>
        <translation>Keine Cache-Ziele. Sie unter „cache_targets“ in der Konfiguration hinzufügen.</translation>
    </message>
    <message>
        <source>%1 of %2 targets connected · %3 of %4 used by cached commits</source>
        <translation>%1 von %2 Zielen verbunden · %3 von %4 durch Commits im Cache belegt</translation>
    </message>
    <message>
        <source>Cached commits on %1 (%2)</source>
        <translation>Commits im Cache auf %1 (%2)</translation>
    </message>
    <message>
        <source>Cached commits on %1 — %2</source>
        <translation>Commits im Cache auf %1 — %2</translation>
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
    <name>strata::views::ChargebackPage</name>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>GPU-h allocated</source>
        <translation>GPU-h belegt</translation>
    </message>
    <message>
        <source>GPU-h used</source>
        <translation>GPU-h genutzt</translation>
    </message>
    <message>
        <source>Storage GiB-h</source>
        <translation>Speicher GiB-h</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>Kosten</translation>
    </message>
    <message>
        <source>Missing h</source>
        <translation>Fehlende h</translation>
    </message>
    <message>
        <source>Volumes</source>
        <translation>Volumes</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Jobs</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Via PVC</source>
        <translation>Über PVC</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
    <message>
        <source>&lt;b&gt;Chargeback&lt;/b&gt;</source>
        <translation>&lt;b&gt;Kostenverrechnung&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&amp;Month (UTC):</source>
        <translation>&amp;Monat (UTC):</translation>
    </message>
    <message>
        <source>Volumes (Job → PVC → volume)</source>
        <translation>Volumes (Job → PVC → Volume)</translation>
    </message>
    <message>
        <source>Jobs in the month</source>
        <translation>Jobs im Monat</translation>
    </message>
    <message>
        <source>Computing the chargeback of %1 from the history…</source>
        <translation>Kostenverrechnung für %1 wird aus dem Verlauf berechnet…</translation>
    </message>
    <message>
        <source>%1 % of it used (DCGM)</source>
        <translation>davon %1 % genutzt (DCGM)</translation>
    </message>
    <message>
        <source>no GPU allocation</source>
        <translation>keine GPU-Belegung</translation>
    </message>
    <message>
        <source>%1: %2 h accounted up to %3 UTC. Cost %4 (GPUs %5, storage %6). %7 GPU-hours allocated, %8; %9 GiB-hours of storage. Up to %10 h have no history.</source>
        <translation>%1: %2 h erfasst bis %3 UTC. Kosten %4 (GPUs %5, Speicher %6). %7 GPU-Stunden belegt, %8; %9 GiB-Stunden Speicher. Bis zu %10 h haben keinen Verlauf.</translation>
    </message>
    <message>
        <source>Hours with no history (before it began, or while Strata did not poll) are missing, not zero.</source>
        <translation>Stunden ohne Verlauf (vor seinem Beginn oder während Strata nicht abfragte) fehlen, sie sind nicht null.</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>No price on the rate card for %1: counted in hours, not in cost (Settings ▸ Rate card).</source>
        <translation>Kein Preis in der Preisliste für %1: in Stunden gezählt, nicht in Kosten (Einstellungen ▸ Preisliste).</translation>
    </message>
    <message>
        <source>&lt;b&gt;Unattributed storage&lt;/b&gt;: volumes no project&apos;s jobs use</source>
        <translation>&lt;b&gt;Nicht zugeordneter Speicher&lt;/b&gt;: Volumes, die kein Job eines Projekts nutzt</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; auf %2</translation>
    </message>
    <message>
        <source>%1 %2 GiB-h</source>
        <translation>%1 %2 GiB-h</translation>
    </message>
    <message>
        <source>No storage in this month.</source>
        <translation>Kein Speicher in diesem Monat.</translation>
    </message>
    <message>
        <source>Storage by tier: %1</source>
        <translation>Speicher nach Stufe: %1</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>PVCs</source>
        <translation>PVCs</translation>
    </message>
    <message>
        <source>No cached commits mounted this month.</source>
        <translation>Keine zwischengespeicherten Commits in diesem Monat eingehängt.</translation>
    </message>
    <message>
        <source>Cached commits mounted: %1</source>
        <translation>Eingehängte zwischengespeicherte Commits: %1</translation>
    </message>
</context>
<context>
    <name>strata::views::DatasetsPage</name>
    <message>
        <source>Filter by dataset, bucket or source</source>
        <translation>Nach Datensatz, Bucket oder Quelle filtern</translation>
    </message>
    <message>
        <source>Select a dataset to see its commits.</source>
        <translation>Einen Datensatz auswählen, um seine Commits zu sehen.</translation>
    </message>
    <message>
        <source>Co&amp;mmit…</source>
        <translation>Co&amp;mmit erstellen…</translation>
    </message>
    <message>
        <source>Record the dataset&apos;s current objects as a new commit</source>
        <translation>Die aktuellen Objekte des Datensatzes als neuen Commit festhalten</translation>
    </message>
    <message>
        <source>Cac&amp;he on…</source>
        <translation>In &amp;Cache laden…</translation>
    </message>
    <message>
        <source>Copy the selected commit onto a cache volume next to the GPUs</source>
        <translation>Den ausgewählten Commit auf ein Cache-Volume neben den GPUs kopieren</translation>
    </message>
    <message>
        <source>Com&amp;pare…</source>
        <translation>&amp;Vergleichen…</translation>
    </message>
    <message>
        <source>Objects added, removed and changed between the two selected commits (or the selected one and its parent)</source>
        <translation>Hinzugefügte, entfernte und geänderte Objekte zwischen den beiden ausgewählten Commits (oder dem ausgewählten und seinem Vorgänger)</translation>
    </message>
    <message>
        <source>C&amp;lear</source>
        <translation>En&amp;tfernen</translation>
    </message>
    <message>
        <source>Remove the selected cached copy from its cache volume</source>
        <translation>Die ausgewählte Kopie im Cache von ihrem Cache-Volume entfernen</translation>
    </message>
    <message>
        <source>Lineage</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>Detail</translation>
    </message>
    <message>
        <source>Dataset → commit → cache volume → claim → job → project</source>
        <translation>Datensatz → Commit → Cache-Volume → Claim → Job → Projekt</translation>
    </message>
    <message>
        <source>Cached copies of the selected commit</source>
        <translation>Kopien des ausgewählten Commits im Cache</translation>
    </message>
    <message>
        <source>%1 — %2 in %3</source>
        <translation>%1 — %2 in %3</translation>
    </message>
    <message>
        <source>%1 (%2, %3 free)</source>
        <translation>%1 (%2, %3 frei)</translation>
    </message>
    <message>
        <source>Compare %1 → %2</source>
        <translation>%1 → %2 vergleichen</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>Size before</source>
        <translation>Größe vorher</translation>
    </message>
    <message>
        <source>Size after</source>
        <translation>Größe nachher</translation>
    </message>
    <message>
        <source>The commits could not be compared: %1</source>
        <translation>Die Commits konnten nicht verglichen werden: %1</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
    <message>
        <source>The two commits hold the same objects (%1).</source>
        <translation>Die beiden Commits enthalten dieselben Objekte (%1).</translation>
    </message>
    <message>
        <source>dataset in %1</source>
        <translation>Datensatz in %1</translation>
    </message>
    <message>
        <source>commit</source>
        <translation>Commit</translation>
    </message>
    <message>
        <source>cache volume %1, %2 (%3)</source>
        <translation>Cache-Volume %1, %2 (%3)</translation>
    </message>
    <message>
        <source>claim on %1</source>
        <translation>Claim auf %1</translation>
    </message>
    <message>
        <source>job, started %1</source>
        <translation>Job, gestartet %1</translation>
    </message>
    <message>
        <source>job (no longer in the cluster)</source>
        <translation>Job (nicht mehr im Cluster)</translation>
    </message>
    <message>
        <source>project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>FlexClone of snapshot &quot;%1&quot; on %2…</source>
        <translation>FlexClone von Snapshot „%1“ auf %2…</translation>
    </message>
    <message>
        <source>A writable clone that shares blocks with %1 and uses no space until data diverges.</source>
        <translation>Ein beschreibbarer Klon, der Blöcke mit %1 teilt und erst Platz belegt, wenn sich Daten ändern.</translation>
    </message>
</context>
<context>
    <name>strata::views::DiagnosisView</name>
    <message>
        <source>GPU %</source>
        <translation>GPU %</translation>
    </message>
    <message>
        <source>Latency ms</source>
        <translation>Latenz ms</translation>
    </message>
    <message>
        <source>GPU % now</source>
        <translation>GPU % aktuell</translation>
    </message>
    <message>
        <source>Next: %1</source>
        <translation>Nächster Schritt: %1</translation>
    </message>
    <message>
        <source>Change service level…</source>
        <translation>Servicelevel ändern…</translation>
    </message>
    <message>
        <source>End session…</source>
        <translation>Sitzung beenden…</translation>
    </message>
    <message>
        <source>MiB/s, ms</source>
        <translation>MiB/s, ms</translation>
    </message>
    <message>
        <source>Volume MiB/s</source>
        <translation>Volume MiB/s</translation>
    </message>
    <message>
        <source>Cap MiB/s</source>
        <translation>Obergrenze MiB/s</translation>
    </message>
</context>
<context>
    <name>strata::views::ForecastsPage</name>
    <message>
        <source>Filter by name, kind or source</source>
        <translation>Filtern nach Name, Art oder Quelle</translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
    <message>
        <source>No forecast yet: the history is read when the sources have been polled.</source>
        <translation>Noch keine Prognose: Der Verlauf wird gelesen, sobald die Quellen abgefragt wurden.</translation>
    </message>
    <message>
        <source>%1 full · %2 full within %3 days · %4 containers</source>
        <translation>%1 voll · %2 voll innerhalb von %3 Tagen · %4 Container</translation>
    </message>
    <message>
        <source>%1 of %2 containers</source>
        <translation>%1 von %2 Containern</translation>
    </message>
    <message>
        <source>1 container</source>
        <translation>1 Container</translation>
    </message>
    <message>
        <source>%1 containers</source>
        <translation>%1 Container</translation>
    </message>
</context>
<context>
    <name>strata::views::GpuPage</name>
    <message>
        <source>Kubernetes cluster</source>
        <translation>Kubernetes-Cluster</translation>
    </message>
    <message>
        <source>Edit &amp;quota…</source>
        <translation>&amp;Kontingent bearbeiten…</translation>
    </message>
    <message>
        <source>Change the selected project&apos;s guaranteed GPUs</source>
        <translation>Garantierte GPUs des ausgewählten Projekts ändern</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>Letzte 6 Stunden</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>Zeitraum:</translation>
    </message>
    <message>
        <source>Allocation over time</source>
        <translation>Belegung im Zeitverlauf</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No Kubernetes cluster</source>
        <translation>Kein Kubernetes-Cluster</translation>
    </message>
    <message>
        <source>Add a Kubernetes source to see its GPUs, projects and jobs.</source>
        <translation>Eine Kubernetes-Quelle hinzufügen, um ihre GPUs, Projekte und Jobs zu sehen.</translation>
    </message>
    <message>
        <source>%1/%2 GPUs allocated</source>
        <translation>%1/%2 GPUs zugewiesen</translation>
    </message>
    <message>
        <source>%1 idle allocated</source>
        <translation>%1 ungenutzt zugewiesen</translation>
    </message>
    <message>
        <source>idle allocated unknown (no GPU metrics)</source>
        <translation>ungenutzt zugewiesen unbekannt (keine GPU-Metriken)</translation>
    </message>
    <message>
        <source>utilization %1 %</source>
        <translation>Auslastung %1 %</translation>
    </message>
    <message>
        <source>utilization unknown</source>
        <translation>Auslastung unbekannt</translation>
    </message>
    <message>
        <source>%1 running, %2 pending jobs</source>
        <translation>%1 laufende, %2 ausstehende Jobs</translation>
    </message>
    <message>
        <source>Project quotas add up to %1 GPUs, but the cluster has %2: guarantees cannot all be met at once, or GPUs are left unassigned.</source>
        <translation>Die Projektkontingente ergeben zusammen %1 GPUs, der Cluster hat aber %2: Entweder können nicht alle Garantien gleichzeitig erfüllt werden, oder GPUs bleiben unzugeteilt.</translation>
    </message>
    <message>
        <source>Σ quota = %1 GPUs = cluster GPUs</source>
        <translation>Σ Kontingente = %1 GPUs = GPUs des Clusters</translation>
    </message>
    <message>
        <source>No Kubernetes cluster.</source>
        <translation>Kein Kubernetes-Cluster.</translation>
    </message>
    <message>
        <source>What &amp;if…</source>
        <translation>Was &amp;wäre wenn…</translation>
    </message>
    <message>
        <source>Try other quotas: which jobs would start, be preempted or stay queued (changes nothing)</source>
        <translation>Andere Kontingente ausprobieren: welche Jobs starten, verdrängt würden oder warten (ändert nichts)</translation>
    </message>
</context>
<context>
    <name>strata::views::GpuProjectChart</name>
    <message>
        <source>Project %1: %2 GPUs allocated</source>
        <translation>Projekt %1: %2 GPUs zugewiesen</translation>
    </message>
    <message>
        <source>No quota</source>
        <translation>Kein Kontingent</translation>
    </message>
    <message>
        <source>Quota: %1 GPUs</source>
        <translation>Kontingent: %1 GPUs</translation>
    </message>
    <message>
        <source>In quota: %1, over quota: %2</source>
        <translation>Im Kontingent: %1, über Kontingent: %2</translation>
    </message>
    <message numerus="yes">
        <source>Pending demand: %1 GPUs in %Ln queued jobs</source>
        <translation>
            <numerusform>Ausstehender Bedarf: %1 GPUs in %Ln wartendem Job</numerusform>
            <numerusform>Ausstehender Bedarf: %1 GPUs in %Ln wartenden Jobs</numerusform>
        </translation>
    </message>
    <message>
        <source>Fair share: %1 GPUs</source>
        <translation>Fair Share: %1 GPUs</translation>
    </message>
    <message>
        <source>Running jobs: %1</source>
        <translation>Laufende Jobs: %1</translation>
    </message>
    <message>
        <source>GPU utilization: %1 %</source>
        <translation>GPU-Auslastung: %1 %</translation>
    </message>
    <message>
        <source>GPU utilization: unknown</source>
        <translation>GPU-Auslastung: unbekannt</translation>
    </message>
    <message>
        <source>No projects in this cluster</source>
        <translation>Keine Projekte in diesem Cluster</translation>
    </message>
    <message>
        <source>In quota</source>
        <translation>Im Kontingent</translation>
    </message>
    <message>
        <source>Over quota</source>
        <translation>Über Kontingent</translation>
    </message>
    <message>
        <source>Pending demand</source>
        <translation>Ausstehender Bedarf</translation>
    </message>
    <message>
        <source>Quota</source>
        <translation>Kontingent</translation>
    </message>
</context>
<context>
    <name>strata::views::JobDetailPanel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>Objekt</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
    <message>
        <source>Status:</source>
        <translation>Status:</translation>
    </message>
    <message>
        <source>Job:</source>
        <translation>Job:</translation>
    </message>
    <message>
        <source>Placement:</source>
        <translation>Platzierung:</translation>
    </message>
    <message>
        <source>Times:</source>
        <translation>Zeiten:</translation>
    </message>
    <message>
        <source>Waiting because:</source>
        <translation>Wartet, weil:</translation>
    </message>
    <message>
        <source>Volumes:</source>
        <translation>Volumes:</translation>
    </message>
    <message>
        <source>Events of the job and its pods:</source>
        <translation>Ereignisse des Jobs und seiner Pods:</translation>
    </message>
    <message>
        <source>No job selected</source>
        <translation>Kein Job ausgewählt</translation>
    </message>
    <message>
        <source>project %1, namespace %2, cluster %3</source>
        <translation>Projekt %1, Namespace %2, Cluster %3</translation>
    </message>
    <message>
        <source>%1 job by %2</source>
        <translation>%1, Job von %2</translation>
    </message>
    <message>
        <source>Interactive (non-preemptible)</source>
        <translation>Interaktiv (nicht verdrängbar)</translation>
    </message>
    <message>
        <source>Training (preemptible)</source>
        <translation>Training (verdrängbar)</translation>
    </message>
    <message>
        <source>an unknown user</source>
        <translation>einem unbekannten Benutzer</translation>
    </message>
    <message>
        <source>image %1</source>
        <translation>Image %1</translation>
    </message>
    <message>
        <source>command %1</source>
        <translation>Befehl %1</translation>
    </message>
    <message>
        <source>submitted with the CLI</source>
        <translation>per CLI übermittelt</translation>
    </message>
    <message>
        <source>submitted from Strata</source>
        <translation>aus Strata übermittelt</translation>
    </message>
    <message>
        <source>submitted by another tool</source>
        <translation>von einem anderen Tool übermittelt</translation>
    </message>
    <message>
        <source>%1 GPUs requested</source>
        <translation>%1 GPUs angefordert</translation>
    </message>
    <message>
        <source>on %1, GPU %2 (%3 allocated)</source>
        <translation>auf %1, GPU %2 (%3 zugewiesen)</translation>
    </message>
    <message>
        <source>not placed on a node</source>
        <translation>keinem Node zugewiesen</translation>
    </message>
    <message>
        <source>GPU utilization %1 %</source>
        <translation>GPU-Auslastung %1 %</translation>
    </message>
    <message>
        <source>the scheduler gave no reason yet</source>
        <translation>der Scheduler hat noch keinen Grund angegeben</translation>
    </message>
    <message>
        <source>not waiting</source>
        <translation>wartet nicht</translation>
    </message>
    <message>
        <source>Preempted: paused to give GPUs back, waiting to run again</source>
        <translation>Verdrängt: pausiert, um GPUs zurückzugeben, wartet auf erneuten Start</translation>
    </message>
    <message>
        <source>age %1</source>
        <translation>Alter %1</translation>
    </message>
    <message>
        <source>waiting %1</source>
        <translation>Wartezeit %1</translation>
    </message>
    <message>
        <source>running %1</source>
        <translation>Laufzeit %1</translation>
    </message>
    <message>
        <source>created %1</source>
        <translation>erstellt am %1</translation>
    </message>
    <message>
        <source>%1 (claim not found)</source>
        <translation>%1 (Claim nicht gefunden)</translation>
    </message>
    <message>
        <source>unbound</source>
        <translation>nicht gebunden</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Why pending?</source>
        <translation>Warum ausstehend?</translation>
    </message>
    <message>
        <source>Why idle?</source>
        <translation>Warum untätig?</translation>
    </message>
    <message>
        <source>1 GPU requested</source>
        <translation>1 GPU angefordert</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>strata::views::JobSubmitDialog</name>
    <message>
        <source>Submit job</source>
        <translation>Job übermitteln</translation>
    </message>
    <message>
        <source>Whole GPUs, or a fraction of one GPU such as 0.5 (shared with other jobs)</source>
        <translation>Ganze GPUs oder ein Bruchteil einer GPU wie 0.5 (mit anderen Jobs geteilt)</translation>
    </message>
    <message>
        <source>Training (preemptible, may use idle GPUs over quota)</source>
        <translation>Training (verdrängbar, darf freie GPUs über Kontingent nutzen)</translation>
    </message>
    <message>
        <source>Interactive (non-preemptible, within quota)</source>
        <translation>Interaktiv (nicht verdrängbar, innerhalb des Kontingents)</translation>
    </message>
    <message>
        <source>Optional: overrides the image&apos;s entrypoint</source>
        <translation>Optional: überschreibt den Entrypoint des Images</translation>
    </message>
    <message>
        <source>Optional, e.g. --epochs 10</source>
        <translation>Optional, z. B. --epochs 10</translation>
    </message>
    <message>
        <source>Claim</source>
        <translation>Claim</translation>
    </message>
    <message>
        <source>Mount path</source>
        <translation>Mount-Pfad</translation>
    </message>
    <message>
        <source>Read-only</source>
        <translation>Schreibgeschützt</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>C&amp;luster:</source>
        <translation>C&amp;luster:</translation>
    </message>
    <message>
        <source>&amp;Project:</source>
        <translation>&amp;Projekt:</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Image:</source>
        <translation>&amp;Image:</translation>
    </message>
    <message>
        <source>&amp;GPUs:</source>
        <translation>&amp;GPUs:</translation>
    </message>
    <message>
        <source>&amp;Type:</source>
        <translation>&amp;Typ:</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>&amp;Befehl:</translation>
    </message>
    <message>
        <source>&amp;Arguments:</source>
        <translation>&amp;Argumente:</translation>
    </message>
    <message>
        <source>&amp;Volumes:</source>
        <translation>&amp;Volumes:</translation>
    </message>
    <message>
        <source>Review…</source>
        <translation>Prüfen…</translation>
    </message>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>Choose a project.</source>
        <translation>Ein Projekt auswählen.</translation>
    </message>
    <message>
        <source>Enter a job name.</source>
        <translation>Einen Job-Namen eingeben.</translation>
    </message>
    <message>
        <source>The name must be lower-case letters, digits and &apos;-&apos;, start and end with a letter or digit, at most 63 characters.</source>
        <translation>Der Name darf nur Kleinbuchstaben, Ziffern und &apos;-&apos; enthalten, muss mit einem Buchstaben oder einer Ziffer beginnen und enden und darf höchstens 63 Zeichen lang sein.</translation>
    </message>
    <message>
        <source>Project %1 already has a job named %2.</source>
        <translation>Projekt %1 hat bereits einen Job namens %2.</translation>
    </message>
    <message>
        <source>Enter a container image.</source>
        <translation>Ein Container-Image eingeben.</translation>
    </message>
    <message>
        <source>Request more than 0 GPUs.</source>
        <translation>Mehr als 0 GPUs anfordern.</translation>
    </message>
    <message>
        <source>More than one GPU must be whole GPUs; a fraction is only possible below one GPU (e.g. 0.5).</source>
        <translation>Mehr als eine GPU muss aus ganzen GPUs bestehen; ein Bruchteil ist nur unter einer GPU möglich (z. B. 0.5).</translation>
    </message>
    <message>
        <source>The mount path of %1 must be absolute.</source>
        <translation>Der Mount-Pfad von %1 muss absolut sein.</translation>
    </message>
    <message>
        <source>Two volumes are mounted at %1.</source>
        <translation>Zwei Volumes sind unter %1 eingehängt.</translation>
    </message>
</context>
<context>
    <name>strata::views::JobsPage</name>
    <message>
        <source>All statuses</source>
        <translation>Alle Status</translation>
    </message>
    <message>
        <source>Filter by name, user, node, image…</source>
        <translation>Filtern nach Name, Benutzer, Node, Image…</translation>
    </message>
    <message>
        <source>&amp;Submit…</source>
        <translation>Ü&amp;bermitteln…</translation>
    </message>
    <message>
        <source>Submit a training or interactive job to a project</source>
        <translation>Einen Training- oder interaktiven Job an ein Projekt übermitteln</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Löschen…</translation>
    </message>
    <message>
        <source>Delete the selected jobs (Del)</source>
        <translation>Ausgewählte Jobs löschen (Entf)</translation>
    </message>
    <message>
        <source>Project:</source>
        <translation>Projekt:</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Alle Projekte</translation>
    </message>
    <message>
        <source>Queued per project: %1</source>
        <translation>Wartend pro Projekt: %1</translation>
    </message>
    <message>
        <source>Running and finished (%1)</source>
        <translation>Laufend und beendet (%1)</translation>
    </message>
    <message>
        <source>Pending and queued (%1)</source>
        <translation>Ausstehend und wartend (%1)</translation>
    </message>
    <message>
        <source>Select the jobs to delete.</source>
        <translation>Die zu löschenden Jobs auswählen.</translation>
    </message>
    <message>
        <source>Select jobs of one cluster at a time.</source>
        <translation>Jobs jeweils nur eines Clusters auswählen.</translation>
    </message>
</context>
<context>
    <name>strata::views::LevelChangeDialog</name>
    <message>
        <source>Change service level of %1</source>
        <translation>Servicelevel von %1 ändern</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (%2) is in a &lt;b&gt;%3&lt;/b&gt; pool. Choose the level to move it to; the next step previews the change.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2) liegt in einem &lt;b&gt;%3&lt;/b&gt;-Pool. Das Servicelevel wählen, in das es wechseln soll; der nächste Schritt zeigt eine Vorschau der Änderung.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; (SVM %2) has the QoS policy &lt;b&gt;%3&lt;/b&gt;. Choose the policy to set; the next step previews the change.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (SVM %2) hat die QoS-Richtlinie &lt;b&gt;%3&lt;/b&gt;. Die zu setzende Richtlinie wählen; der nächste Schritt zeigt eine Vorschau der Änderung.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>Servicelevel</translation>
    </message>
    <message>
        <source>QoS policy</source>
        <translation>QoS-Richtlinie</translation>
    </message>
    <message>
        <source>Cap</source>
        <translation>Obergrenze</translation>
    </message>
    <message>
        <source>Cost/month</source>
        <translation>Kosten/Monat</translation>
    </message>
    <message>
        <source>Pool</source>
        <translation>Pool</translation>
    </message>
    <message>
        <source>(no policy)</source>
        <translation>(keine Richtlinie)</translation>
    </message>
    <message>
        <source>%1 (current)</source>
        <translation>%1 (aktuell)</translation>
    </message>
    <message>
        <source>%1 IOPS</source>
        <translation>%1 IOPS</translation>
    </message>
    <message>
        <source>no pool of this level</source>
        <translation>kein Pool mit diesem Servicelevel</translation>
    </message>
    <message>
        <source>%1 (full)</source>
        <translation>%1 (voll)</translation>
    </message>
    <message>
        <source>%1 (has room)</source>
        <translation>%1 (hat Platz)</translation>
    </message>
    <message>
        <source> TiB</source>
        <translation> TiB</translation>
    </message>
    <message>
        <source>Capacity pools are sized in whole TiB and billed for their full size.</source>
        <translation>Kapazitätspools werden in ganzen TiB bemessen und für ihre volle Größe abgerechnet.</translation>
    </message>
    <message>
        <source>New pool &amp;size:</source>
        <translation>&amp;Größe des neuen Pools:</translation>
    </message>
    <message>
        <source>&amp;Preview…</source>
        <translation>&amp;Vorschau…</translation>
    </message>
    <message>
        <source>No %1 pool in this account has room for the volume. The preview offers to create the pool %2 first.</source>
        <translation>Kein %1-Pool in diesem Konto hat Platz für das Volume. Die Vorschau bietet an, zuerst den Pool %2 zu erstellen.</translation>
    </message>
</context>
<context>
    <name>strata::views::MainWindow</name>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>degraded</source>
        <translation>beeinträchtigt</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>nicht erreichbar</translation>
    </message>
    <message>
        <source>authentication required</source>
        <translation>Anmeldung erforderlich</translation>
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
        <source>Sources</source>
        <translation>Quellen</translation>
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
        <translation>Hauptsymbolleiste</translation>
    </message>
    <message>
        <source>About Strata</source>
        <translation>Über Strata</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Strata %1&lt;/h3&gt;&lt;p&gt;One console for the storage and the GPUs behind AI work.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Strata %1&lt;/h3&gt;&lt;p&gt;Eine Konsole für Speicher und GPUs hinter KI-Arbeit.&lt;/p&gt;&lt;p&gt;Erstellt mit Qt %2.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>No sources configured</source>
        <translation>Keine Quellen konfiguriert</translation>
    </message>
    <message numerus="yes">
        <source>%Ln source: %1</source>
        <translation>
            <numerusform>%Ln Quelle: %1</numerusform>
            <numerusform>%Ln Quellen: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln sources: %1</source>
        <translation>
            <numerusform>%Ln Quelle: %1</numerusform>
            <numerusform>%Ln Quellen: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Overview</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>GPU clusters, jobs and storage at a glance</source>
        <translation>GPU-Cluster, Jobs und Speicher auf einen Blick</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>GPUs per project, allocation over time and node packing</source>
        <translation>GPUs pro Projekt, Belegung im Zeitverlauf und Verteilung auf Nodes</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Jobs</translation>
    </message>
    <message>
        <source>Running and queued jobs of every project</source>
        <translation>Laufende und wartende Jobs aller Projekte</translation>
    </message>
    <message>
        <source>Volumes of every source</source>
        <translation>Volumes aller Quellen</translation>
    </message>
    <message>
        <source>Connected systems and their health</source>
        <translation>Verbundene Systeme und ihr Zustand</translation>
    </message>
    <message>
        <source>The volume behind this claim is not in the Volumes list (source %1).</source>
        <translation>Das Volume hinter diesem Claim ist nicht in der Volume-Liste (Quelle %1).</translation>
    </message>
    <message>
        <source>Service levels</source>
        <translation>Servicelevel</translation>
    </message>
    <message>
        <source>Throughput caps, observed throughput and scheduled level changes of every volume</source>
        <translation>Durchsatzobergrenzen, beobachteter Durchsatz und geplante Servicelevel-Änderungen aller Volumes</translation>
    </message>
    <message>
        <source>&amp;Settings</source>
        <translation>&amp;Einstellungen</translation>
    </message>
    <message>
        <source>&amp;Rate card…</source>
        <translation>&amp;Preisliste…</translation>
    </message>
    <message>
        <source>Prices per GiB and month, and the cool-down between level changes</source>
        <translation>Preise pro GiB und Monat sowie die Sperrfrist zwischen Servicelevel-Änderungen</translation>
    </message>
    <message>
        <source>Datasets</source>
        <translation>Datensätze</translation>
    </message>
    <message>
        <source>The dataset hub: datasets, their commits and where they are cached</source>
        <translation>Der Datensatz-Hub: Datensätze, ihre Commits und wo sie im Cache liegen</translation>
    </message>
    <message>
        <source>Cache targets</source>
        <translation>Cache-Ziele</translation>
    </message>
    <message>
        <source>Cache volumes next to the GPUs, what fills them and when it is evicted</source>
        <translation>Cache-Volumes neben den GPUs, was sie belegt und wann es verdrängt wird</translation>
    </message>
    <message>
        <source>StorageGRID</source>
        <translation>StorageGRID</translation>
    </message>
    <message>
        <source>Grid health, nodes, alerts, tenants and buckets</source>
        <translation>Grid-Zustand, Nodes, Warnmeldungen, Mandanten und Buckets</translation>
    </message>
    <message>
        <source>Triage</source>
        <translation>Triage</translation>
    </message>
    <message>
        <source>Events, alerts, operations, scheduler decisions and changes of every system on one timeline</source>
        <translation>Ereignisse, Warnmeldungen, Vorgänge, Scheduler-Entscheidungen und Änderungen aller Systeme in einem Zeitverlauf</translation>
    </message>
    <message>
        <source>%1 is not shown on any page now.</source>
        <translation>%1 wird derzeit auf keiner Seite angezeigt.</translation>
    </message>
    <message>
        <source>Strata support bundles (*.strata-bundle);;All files (*)</source>
        <translation>Strata-Support-Bundles (*.strata-bundle);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>&amp;Open support bundle…</source>
        <translation>Support-Bundle ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Show a support bundle read-only, in a new window, without connecting to anything</source>
        <translation>Ein Support-Bundle schreibgeschützt in einem neuen Fenster anzeigen, ohne Verbindung zu irgendetwas</translation>
    </message>
    <message>
        <source>Open support bundle</source>
        <translation>Support-Bundle öffnen</translation>
    </message>
    <message>
        <source>&amp;Compare support bundles…</source>
        <translation>Support-Bundles &amp;vergleichen…</translation>
    </message>
    <message>
        <source>Compare support bundles: the older one</source>
        <translation>Support-Bundles vergleichen: das ältere</translation>
    </message>
    <message>
        <source>Compare support bundles: the newer one</source>
        <translation>Support-Bundles vergleichen: das neuere</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>verbinde…</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Forecasts</source>
        <translation>Prognosen</translation>
    </message>
    <message>
        <source>When each volume, aggregate, pool, bucket, tenant and cache target fills, full soonest first</source>
        <translation>Wann jedes Volume, Aggregat, jeder Pool, Bucket, Mandant und jedes Cache-Ziel voll ist, das früheste zuerst</translation>
    </message>
    <message>
        <source>Chargeback</source>
        <translation>Kostenverrechnung</translation>
    </message>
    <message>
        <source>GPU-hours, storage GiB-hours and their cost per project and month</source>
        <translation>GPU-Stunden, Speicher-GiB-Stunden und ihre Kosten pro Projekt und Monat</translation>
    </message>
</context>
<context>
    <name>strata::views::NodePackingView</name>
    <message>
        <source>%1/%2 GPUs allocated</source>
        <translation>%1/%2 GPUs zugewiesen</translation>
    </message>
    <message>
        <source>utilization %1 %</source>
        <translation>Auslastung %1 %</translation>
    </message>
    <message>
        <source>not ready</source>
        <translation>nicht bereit</translation>
    </message>
    <message>
        <source>cordoned</source>
        <translation>gesperrt (cordoned)</translation>
    </message>
    <message>
        <source>No GPU nodes in this cluster</source>
        <translation>Keine GPU-Nodes in diesem Cluster</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message numerus="yes">
        <source>+%n more</source>
        <translation>
            <numerusform>+%n weiterer</numerusform>
            <numerusform>+%n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>idle</source>
        <translation>ungenutzt</translation>
    </message>
    <message>
        <source>%1, GPU %2: %3 of 1 GPU used</source>
        <translation>%1, GPU %2: %3 von 1 GPU belegt</translation>
    </message>
    <message>
        <source>Utilization %1 %</source>
        <translation>Auslastung %1 %</translation>
    </message>
</context>
<context>
    <name>strata::views::OverviewPage</name>
    <message>
        <source>Open the GPU page</source>
        <translation>GPU-Seite öffnen</translation>
    </message>
    <message>
        <source>Open the Volumes page</source>
        <translation>Volumes-Seite öffnen</translation>
    </message>
    <message>
        <source>Open the Jobs page</source>
        <translation>Jobs-Seite öffnen</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message numerus="yes">
        <source>%n with GPUs</source>
        <translation>
            <numerusform>%n mit GPUs</numerusform>
            <numerusform>%n mit GPUs</numerusform>
        </translation>
    </message>
    <message>
        <source>GPUs allocated</source>
        <translation>Zugewiesene GPUs</translation>
    </message>
    <message>
        <source>%1 free</source>
        <translation>%1 frei</translation>
    </message>
    <message>
        <source>Idle allocated GPUs</source>
        <translation>Ungenutzt zugewiesene GPUs</translation>
    </message>
    <message>
        <source>allocated, below 10 % utilization</source>
        <translation>zugewiesen, unter 10 % Auslastung</translation>
    </message>
    <message>
        <source>no GPU metrics</source>
        <translation>keine GPU-Metriken</translation>
    </message>
    <message>
        <source>GPU utilization</source>
        <translation>GPU-Auslastung</translation>
    </message>
    <message>
        <source>mean over allocated GPUs</source>
        <translation>Mittelwert über zugewiesene GPUs</translation>
    </message>
    <message>
        <source>no Prometheus/DCGM answer</source>
        <translation>keine Antwort von Prometheus/DCGM</translation>
    </message>
    <message>
        <source>Running jobs</source>
        <translation>Laufende Jobs</translation>
    </message>
    <message>
        <source>training and interactive</source>
        <translation>Training und interaktiv</translation>
    </message>
    <message>
        <source>Pending jobs</source>
        <translation>Ausstehende Jobs</translation>
    </message>
    <message>
        <source>queued or preempted</source>
        <translation>wartend oder verdrängt</translation>
    </message>
    <message>
        <source>Σ project quotas</source>
        <translation>Σ Projektkontingente</translation>
    </message>
    <message>
        <source>= %1 GPUs in the cluster</source>
        <translation>= %1 GPUs im Cluster</translation>
    </message>
    <message>
        <source>≠ %1 GPUs in the cluster</source>
        <translation>≠ %1 GPUs im Cluster</translation>
    </message>
    <message>
        <source>%1: project quotas add up to %2 GPUs, the cluster has %3</source>
        <translation>%1: Projektkontingente ergeben zusammen %2 GPUs, der Cluster hat %3</translation>
    </message>
    <message>
        <source>All clusters</source>
        <translation>Alle Cluster</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No Kubernetes GPU cluster is connected. Add a Kubernetes source to see GPUs, projects and jobs here.</source>
        <translation>Kein Kubernetes-GPU-Cluster ist verbunden. Eine Kubernetes-Quelle hinzufügen, um hier GPUs, Projekte und Jobs zu sehen.</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Volumes</source>
        <translation>Volumes</translation>
    </message>
    <message>
        <source>%1 used of %2</source>
        <translation>%1 von %2 belegt</translation>
    </message>
    <message>
        <source>%1 critical alert</source>
        <translation>%1 kritische Warnmeldung</translation>
    </message>
    <message>
        <source>%1 critical alerts</source>
        <translation>%1 kritische Warnmeldungen</translation>
    </message>
    <message>
        <source>%1 critical</source>
        <translation>%1 kritisch</translation>
    </message>
    <message>
        <source>%1 major alert</source>
        <translation>%1 schwere Warnmeldung</translation>
    </message>
    <message>
        <source>%1 major alerts</source>
        <translation>%1 schwere Warnmeldungen</translation>
    </message>
    <message>
        <source>%1 error</source>
        <translation>%1 Fehler</translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation>%1 Fehler</translation>
    </message>
    <message>
        <source>%1 minor alert</source>
        <translation>%1 leichte Warnmeldung</translation>
    </message>
    <message>
        <source>%1 minor alerts</source>
        <translation>%1 leichte Warnmeldungen</translation>
    </message>
    <message>
        <source>%1 warning</source>
        <translation>%1 Warnung</translation>
    </message>
    <message>
        <source>%1 warnings</source>
        <translation>%1 Warnungen</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>Lade %1…</translation>
    </message>
    <message>
        <source>ONTAP cluster</source>
        <translation>ONTAP-Cluster</translation>
    </message>
    <message>
        <source>Azure NetApp Files account</source>
        <translation>Azure NetApp Files-Konto</translation>
    </message>
    <message>
        <source>StorageGRID grid</source>
        <translation>StorageGRID-Grid</translation>
    </message>
    <message>
        <source>Loading GPU allocation history…</source>
        <translation>GPU-Zuteilungsverlauf wird geladen…</translation>
    </message>
    <message>
        <source>GPU allocation and utilization of %1 over the last 24 h</source>
        <translation>GPU-Zuteilung und -Auslastung von %1 in den letzten 24 h</translation>
    </message>
    <message>
        <source>All projects</source>
        <translation>Alle Projekte</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>used of capacity unknown</source>
        <translation>Belegung der Kapazität unbekannt</translation>
    </message>
    <message>
        <source>%1 used</source>
        <translation>%1 belegt</translation>
    </message>
    <message>
        <source>throughput %1</source>
        <translation>Durchsatz %1</translation>
    </message>
    <message>
        <source>%1 now</source>
        <translation>%1 jetzt</translation>
    </message>
    <message>
        <source>1 volume</source>
        <translation>1 Volume</translation>
    </message>
    <message>
        <source>%1 volumes</source>
        <translation>%1 Volumes</translation>
    </message>
    <message>
        <source>pools %1 of %2 allocated</source>
        <translation>Pools %1 von %2 zugeteilt</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1 (%2) · %3</source>
        <translation>%1 (%2) · %3</translation>
    </message>
    <message>
        <source>Open the StorageGRID page</source>
        <translation>StorageGRID-Seite öffnen</translation>
    </message>
    <message>
        <source>Cache usage</source>
        <translation>Cache-Belegung</translation>
    </message>
    <message>
        <source>%1 · %2 cached in %3 · watermark %4&#xa0;%</source>
        <translation>%1 · %2 zwischengespeichert in %3 · Schwelle %4&#xa0;%</translation>
    </message>
    <message>
        <source>capacity not known yet</source>
        <translation>Kapazität noch unbekannt</translation>
    </message>
    <message>
        <source>1 commit</source>
        <translation>1 Commit</translation>
    </message>
    <message>
        <source>%1 commits</source>
        <translation>%1 Commits</translation>
    </message>
    <message>
        <source>above the high watermark</source>
        <translation>über der oberen Schwelle</translation>
    </message>
    <message>
        <source>Open the Cache targets page</source>
        <translation>Seite „Cache-Ziele“ öffnen</translation>
    </message>
    <message>
        <source>Needs attention (%1)</source>
        <translation>Braucht Aufmerksamkeit (%1)</translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation>%1 öffnen</translation>
    </message>
    <message>
        <source>and %1 more: &lt;code&gt;strata get attention&lt;/code&gt; lists them all</source>
        <translation>und %1 weitere: &lt;code&gt;strata get attention&lt;/code&gt; listet alle</translation>
    </message>
    <message>
        <source>Recent events (Triage):</source>
        <translation>Letzte Ereignisse (Triage):</translation>
    </message>
</context>
<context>
    <name>strata::views::QuotaWhatIfDialog</name>
    <message>
        <source>What if quotas change — %1</source>
        <translation>Was wäre, wenn sich Kontingente ändern — %1</translation>
    </message>
    <message>
        <source>Change quotas and press Predict: Strata runs the Run:ai/KAI queue rules on the cluster&apos;s jobs as they are now. Nothing changes until you apply a quota.</source>
        <translation>Kontingente ändern und „Vorhersagen“ drücken: Strata wendet die Run:ai/KAI-Warteschlangenregeln auf die aktuellen Jobs des Clusters an. Nichts ändert sich, bis Sie ein Kontingent anwenden.</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>Quota (GPUs)</source>
        <translation>Kontingent (GPUs)</translation>
    </message>
    <message>
        <source>Over-quota weight</source>
        <translation>Über-Kontingent-Gewicht</translation>
    </message>
    <message>
        <source>Split spare GPUs by over-quota weight (KAI) instead of by quota</source>
        <translation>Freie GPUs nach Über-Kontingent-Gewicht (KAI) statt nach Kontingent verteilen</translation>
    </message>
    <message>
        <source>Quota of %1 in GPUs</source>
        <translation>Kontingent von %1 in GPUs</translation>
    </message>
    <message>
        <source>Over-quota weight of %1</source>
        <translation>Über-Kontingent-Gewicht von %1</translation>
    </message>
    <message>
        <source>&amp;Predict</source>
        <translation>&amp;Vorhersagen</translation>
    </message>
    <message>
        <source>&amp;Apply quota…</source>
        <translation>Kontingent &amp;anwenden…</translation>
    </message>
    <message>
        <source>Change the selected project&apos;s quota to the one tried here (preview first)</source>
        <translation>Das Kontingent des gewählten Projekts auf das hier ausprobierte ändern (zuerst Vorschau)</translation>
    </message>
    <message>
        <source>Projects, now → predicted</source>
        <translation>Projekte, jetzt → vorhergesagt</translation>
    </message>
    <message>
        <source>Jobs that would change or stay queued</source>
        <translation>Jobs, die sich ändern würden oder weiter warten</translation>
    </message>
    <message>
        <source>%1 has no projects yet.</source>
        <translation>%1 hat noch keine Projekte.</translation>
    </message>
    <message>
        <source>Predicting…</source>
        <translation>Vorhersage läuft…</translation>
    </message>
    <message>
        <source>Quotas %1 → %2 of %3 GPUs; spare GPUs split by %4. %5 would start, %6 would be preempted.</source>
        <translation>Kontingente %1 → %2 von %3 GPUs; freie GPUs verteilt nach %4. %5 würden starten, %6 würden verdrängt.</translation>
    </message>
    <message>
        <source>over-quota weight</source>
        <translation>Über-Kontingent-Gewicht</translation>
    </message>
    <message>
        <source>quota</source>
        <translation>Kontingent</translation>
    </message>
    <message>
        <source>Run:ai expects the quotas to add up to the cluster&apos;s GPUs.</source>
        <translation>Run:ai erwartet, dass die Kontingente zusammen die GPUs des Clusters ergeben.</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>Verdrängt</translation>
    </message>
    <message>
        <source>Starts</source>
        <translation>Startet</translation>
    </message>
    <message>
        <source>Stays queued</source>
        <translation>Wartet weiter</translation>
    </message>
    <message>
        <source>Keeps running</source>
        <translation>Läuft weiter</translation>
    </message>
</context>
<context>
    <name>strata::views::RateCardDialog</name>
    <message>
        <source>(no policy)</source>
        <translation>(keine Richtlinie)</translation>
    </message>
    <message>
        <source>Rate card</source>
        <translation>Preisliste</translation>
    </message>
    <message>
        <source>ISO 4217 code, e.g. USD or EUR</source>
        <translation>ISO-4217-Code, z. B. USD oder EUR</translation>
    </message>
    <message>
        <source>Azure NetApp Files, per GiB of quota and month</source>
        <translation>Azure NetApp Files, pro GiB Kontingent und Monat</translation>
    </message>
    <message>
        <source>%1:</source>
        <translation>%1:</translation>
    </message>
    <message>
        <source>ONTAP chargeback, per GiB and month, by QoS policy</source>
        <translation>ONTAP-Leistungsverrechnung (Chargeback), pro GiB und Monat, nach QoS-Richtlinie</translation>
    </message>
    <message>
        <source>QoS policy</source>
        <translation>QoS-Richtlinie</translation>
    </message>
    <message>
        <source>Price</source>
        <translation>Preis</translation>
    </message>
    <message>
        <source>Leave the price empty for volumes that are not charged. &quot;%1&quot; prices volumes without a QoS policy.</source>
        <translation>Den Preis für Volumes, die nicht verrechnet werden, leer lassen. „%1“ gibt den Preis für Volumes ohne QoS-Richtlinie an.</translation>
    </message>
    <message>
        <source>&amp;Add policy</source>
        <translation>Richtlinie &amp;hinzufügen</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>&amp;Entfernen</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Strata refuses a level change of a volume this soon after its last change (Azure allows a pool change at most every few hours per volume).</source>
        <translation>Strata lehnt eine Servicelevel-Änderung eines Volumes so kurz nach seiner letzten Änderung ab (Azure erlaubt einen Pool-Wechsel höchstens alle paar Stunden pro Volume).</translation>
    </message>
    <message>
        <source>&amp;Currency:</source>
        <translation>&amp;Währung:</translation>
    </message>
    <message>
        <source>C&amp;ool-down between changes:</source>
        <translation>Sperr&amp;frist zwischen Änderungen:</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>policy-name</source>
        <translation>richtlinienname</translation>
    </message>
    <message>
        <source>Enter a three-letter currency code.</source>
        <translation>Einen dreistelligen Währungscode eingeben.</translation>
    </message>
    <message>
        <source>Row %1: the price must be a number of 0 or more.</source>
        <translation>Zeile %1: Der Preis muss eine Zahl größer oder gleich 0 sein.</translation>
    </message>
    <message>
        <source>(any other GPU)</source>
        <translation>(jede andere GPU)</translation>
    </message>
    <message>
        <source>Row %1: enter the %2 name.</source>
        <translation>Zeile %1: den Namen für %2 eingeben.</translation>
    </message>
    <message>
        <source>The %1 %2 is listed twice.</source>
        <translation>%1 %2 ist doppelt aufgeführt.</translation>
    </message>
    <message>
        <source>GPUs, per GPU-hour, by GPU product (chargeback)</source>
        <translation>GPUs, pro GPU-Stunde, nach GPU-Produkt (Kostenverrechnung)</translation>
    </message>
    <message>
        <source>GPU product</source>
        <translation>GPU-Produkt</translation>
    </message>
    <message>
        <source>Add &amp;GPU product</source>
        <translation>&amp;GPU-Produkt hinzufügen</translation>
    </message>
    <message>
        <source>GPU-product</source>
        <translation>GPU-Produkt</translation>
    </message>
    <message>
        <source>The node label nvidia.com/gpu.product, e.g. Tesla-V100-SXM2-32GB. &quot;%1&quot; prices every product not listed.</source>
        <translation>Das Node-Label nvidia.com/gpu.product, z. B. Tesla-V100-SXM2-32GB. „%1“ bepreist jedes nicht aufgeführte Produkt.</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>kein Preis</translation>
    </message>
    <message>
        <source>Chargeback per GiB of data stored in a bucket and month</source>
        <translation>Kostenverrechnung pro GiB gespeicherter Daten in einem Bucket und Monat</translation>
    </message>
    <message>
        <source>StorageGRID, per GiB stored and &amp;month:</source>
        <translation>StorageGRID, pro gespeicherter GiB und &amp;Monat:</translation>
    </message>
</context>
<context>
    <name>strata::views::ScheduleDialog</name>
    <message>
        <source>(no policy)</source>
        <translation>(keine Richtlinie)</translation>
    </message>
    <message>
        <source>Schedule a level change of %1</source>
        <translation>Servicelevel-Änderung von %1 planen</translation>
    </message>
    <message>
        <source>At a time</source>
        <translation>Zu einem Zeitpunkt</translation>
    </message>
    <message>
        <source>For a window (change, then change back)</source>
        <translation>Für ein Zeitfenster (ändern, danach zurückwechseln)</translation>
    </message>
    <message>
        <source>Once</source>
        <translation>Einmalig</translation>
    </message>
    <message>
        <source>Every day</source>
        <translation>Täglich</translation>
    </message>
    <message>
        <source>Monday to Friday</source>
        <translation>Montag bis Freitag</translation>
    </message>
    <message>
        <source>Every week</source>
        <translation>Wöchentlich</translation>
    </message>
    <message>
        <source>&amp;When:</source>
        <translation>&amp;Wann:</translation>
    </message>
    <message>
        <source>Change &amp;to:</source>
        <translation>Ändern &amp;auf:</translation>
    </message>
    <message>
        <source>&amp;Start:</source>
        <translation>&amp;Beginn:</translation>
    </message>
    <message>
        <source>&amp;End:</source>
        <translation>&amp;Ende:</translation>
    </message>
    <message>
        <source>After the window &amp;back to:</source>
        <translation>Nach dem Zeitfenster &amp;zurück auf:</translation>
    </message>
    <message>
        <source>&amp;Repeat:</source>
        <translation>Wieder&amp;holung:</translation>
    </message>
    <message>
        <source>&amp;Schedule</source>
        <translation>Ein&amp;planen</translation>
    </message>
    <message>
        <source>Each change runs like one started by hand: with the same checks as its preview, shown in the Activity panel and in the audit log. Strata must be running (this desktop or strata-server with this source) at that time.</source>
        <translation>Jede Änderung läuft wie eine manuell gestartete: mit denselben Prüfungen wie ihre Vorschau, angezeigt im Aktivitätsbereich und im Audit-Log. Strata muss zu diesem Zeitpunkt laufen (diese Desktop-App oder strata-server mit dieser Quelle).</translation>
    </message>
    <message>
        <source>Choose a level.</source>
        <translation>Ein Servicelevel wählen.</translation>
    </message>
    <message>
        <source>The start must be in the future.</source>
        <translation>Der Beginn muss in der Zukunft liegen.</translation>
    </message>
    <message>
        <source>The end must be after the start.</source>
        <translation>Das Ende muss nach dem Beginn liegen.</translation>
    </message>
    <message>
        <source>The level for the window must differ from the level after it.</source>
        <translation>Das Servicelevel für das Zeitfenster muss sich vom Servicelevel danach unterscheiden.</translation>
    </message>
    <message>
        <source>A daily window must be shorter than a day.</source>
        <translation>Ein tägliches Zeitfenster muss kürzer als ein Tag sein.</translation>
    </message>
    <message>
        <source>A weekly window must be shorter than a week.</source>
        <translation>Ein wöchentliches Zeitfenster muss kürzer als eine Woche sein.</translation>
    </message>
    <message>
        <source>The volume already has this level.</source>
        <translation>Das Volume hat bereits dieses Servicelevel.</translation>
    </message>
    <message>
        <source>&amp;At:</source>
        <translation>&amp;Um:</translation>
    </message>
    <message>
        <source>%1 goes to %2 at %3 and back to %4 at %5.</source>
        <translation>%1 wechselt am %3 auf %2 und am %5 zurück auf %4.</translation>
    </message>
    <message>
        <source>%1 goes to %2 at %3.</source>
        <translation>%1 wechselt am %3 auf %2.</translation>
    </message>
    <message>
        <source>Repeats every day.</source>
        <translation>Wird täglich wiederholt.</translation>
    </message>
    <message>
        <source>Repeats Monday to Friday.</source>
        <translation>Wird montags bis freitags wiederholt.</translation>
    </message>
    <message>
        <source>Repeats every week.</source>
        <translation>Wird wöchentlich wiederholt.</translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
</context>
<context>
    <name>strata::views::ServiceLevelsPage</name>
    <message>
        <source>Filter by volume, SVM, pool, source or level</source>
        <translation>Nach Volume, SVM, Pool, Quelle oder Servicelevel filtern</translation>
    </message>
    <message>
        <source>All volumes</source>
        <translation>Alle Volumes</translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation>Mit Hinweis</translation>
    </message>
    <message>
        <source>At cap</source>
        <translation>An der Obergrenze</translation>
    </message>
    <message>
        <source>Far below cap</source>
        <translation>Weit unter der Obergrenze</translation>
    </message>
    <message>
        <source>&amp;Change level…</source>
        <translation>Servicelevel &amp;ändern…</translation>
    </message>
    <message>
        <source>Move the volume to another service level, with a preview first</source>
        <translation>Das Volume in ein anderes Servicelevel verschieben, zuerst mit Vorschau</translation>
    </message>
    <message>
        <source>&amp;Schedule…</source>
        <translation>Ein&amp;planen…</translation>
    </message>
    <message>
        <source>Change the level at a time, or raise it for a window and lower it after</source>
        <translation>Das Servicelevel zu einem Zeitpunkt ändern oder für ein Zeitfenster anheben und danach wieder senken</translation>
    </message>
    <message>
        <source>&amp;Upcoming changes…</source>
        <translation>&amp;Anstehende Änderungen…</translation>
    </message>
    <message>
        <source>&amp;Rate card…</source>
        <translation>Preis&amp;liste…</translation>
    </message>
    <message>
        <source>Prices per GiB and month, and the cool-down between changes</source>
        <translation>Preise pro GiB und Monat sowie die Sperrfrist zwischen Änderungen</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>Letzte 30 Tage</translation>
    </message>
    <message>
        <source>This volume&apos;s scheduled level changes</source>
        <translation>Geplante Servicelevel-Änderungen dieses Volumes</translation>
    </message>
    <message>
        <source>Scheduled changes:</source>
        <translation>Geplante Änderungen:</translation>
    </message>
    <message>
        <source>%1 — %2, cap %3</source>
        <translation>%1 — %2, Obergrenze %3</translation>
    </message>
    <message>
        <source>no level</source>
        <translation>kein Servicelevel</translation>
    </message>
    <message>
        <source>No volume selected</source>
        <translation>Kein Volume ausgewählt</translation>
    </message>
    <message>
        <source>Select a volume to see its throughput against its cap.</source>
        <translation>Ein Volume auswählen, um seinen Durchsatz im Vergleich zur Obergrenze zu sehen.</translation>
    </message>
    <message>
        <source>Loading throughput history…</source>
        <translation>Durchsatzverlauf wird geladen…</translation>
    </message>
    <message>
        <source>%1  %2 → %3</source>
        <translation>%1  %2 → %3</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>(no policy)</source>
        <translation>(keine Richtlinie)</translation>
    </message>
    <message>
        <source>(end of window)</source>
        <translation>(Ende des Zeitfensters)</translation>
    </message>
    <message>
        <source>None</source>
        <translation>Keine</translation>
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
        <translation>z. B. ontap-prod</translation>
    </message>
    <message>
        <source>NetApp ONTAP</source>
        <translation>NetApp ONTAP</translation>
    </message>
    <message>
        <source>https://cluster-mgmt.example.com</source>
        <translation>https://cluster-mgmt.example.com</translation>
    </message>
    <message>
        <source>e.g. admin</source>
        <translation>z. B. admin</translation>
    </message>
    <message>
        <source>Stored in the system keychain, never in the configuration file.</source>
        <translation>Im Schlüsselbund des Systems gespeichert, nie in der Konfigurationsdatei.</translation>
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
        <translation>Jeder auf dem Netzwerkpfad kann sich als dieses System ausgeben und sein Passwort mitlesen. Besser eine CA-Datei verwenden.</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
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
        <translation>Der Name ist der Schlüssel des gespeicherten Passworts; zum Umbenennen die Quelle entfernen und neu hinzufügen.</translation>
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
        <source>CA certificate bundle</source>
        <translation>CA-Zertifikatsbündel</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>PEM-Zertifikate (*.pem *.crt *.cer);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Kubernetes cluster</source>
        <translation>Kubernetes-Cluster</translation>
    </message>
    <message>
        <source>Kubeconfig</source>
        <translation>Kubeconfig</translation>
    </message>
    <message>
        <source>API server URL and token</source>
        <translation>API-Server-URL und Token</translation>
    </message>
    <message>
        <source>$KUBECONFIG or ~/.kube/config</source>
        <translation>$KUBECONFIG oder ~/.kube/config</translation>
    </message>
    <message>
        <source>The cluster, CA and credentials (token, client certificate or exec plugin) come from this file.</source>
        <translation>Cluster, CA und Anmeldedaten (Token, Client-Zertifikat oder Exec-Plugin) stammen aus dieser Datei.</translation>
    </message>
    <message>
        <source>Optional, e.g. http://prometheus.monitoring:9090</source>
        <translation>Optional, z. B. http://prometheus.monitoring:9090</translation>
    </message>
    <message>
        <source>Prometheus with the DCGM exporter&apos;s metrics, for GPU utilization.</source>
        <translation>Prometheus mit den Metriken des DCGM-Exporters, für die GPU-Auslastung.</translation>
    </message>
    <message>
        <source>Connect &amp;with:</source>
        <translation>&amp;Verbinden über:</translation>
    </message>
    <message>
        <source>Kube&amp;config:</source>
        <translation>&amp;Kubeconfig:</translation>
    </message>
    <message>
        <source>Con&amp;text:</source>
        <translation>Kont&amp;ext:</translation>
    </message>
    <message>
        <source>P&amp;rometheus URL:</source>
        <translation>P&amp;rometheus-URL:</translation>
    </message>
    <message>
        <source>No token stored</source>
        <translation>Kein Token gespeichert</translation>
    </message>
    <message>
        <source>Leave empty to keep the stored token</source>
        <translation>Leer lassen, um das gespeicherte Token zu behalten</translation>
    </message>
    <message>
        <source>Reading the kubeconfig…</source>
        <translation>Kubeconfig wird gelesen…</translation>
    </message>
    <message>
        <source>Cannot use the kubeconfig: %1</source>
        <translation>Kubeconfig kann nicht verwendet werden: %1</translation>
    </message>
    <message>
        <source>Choose a context.</source>
        <translation>Einen Kontext auswählen.</translation>
    </message>
    <message>
        <source>The kubeconfig has no context named %1.</source>
        <translation>Die Kubeconfig hat keinen Kontext namens %1.</translation>
    </message>
    <message>
        <source>Enter the URL of the Kubernetes API server.</source>
        <translation>Die URL des Kubernetes-API-Servers eingeben.</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>T&amp;oken:</translation>
    </message>
    <message>
        <source>GPU m&amp;etrics every:</source>
        <translation>&amp;GPU-Metriken alle:</translation>
    </message>
    <message>
        <source>https://api.cluster.example.com:6443</source>
        <translation>https://api.cluster.example.com:6443</translation>
    </message>
    <message>
        <source>A ServiceAccount bearer token. Stored in the system keychain, never in the configuration file.</source>
        <translation>Ein ServiceAccount-Bearer-Token. Im Schlüsselbund des Systems gespeichert, nie in der Konfigurationsdatei.</translation>
    </message>
    <message>
        <source>The kubeconfig&apos;s current-context</source>
        <translation>current-context der Kubeconfig</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Azure subscription</source>
        <translation>Azure-Abonnement</translation>
    </message>
    <message>
        <source>00000000-0000-0000-0000-000000000000</source>
        <translation>00000000-0000-0000-0000-000000000000</translation>
    </message>
    <message>
        <source>The subscription with the Azure NetApp Files accounts and AKS clusters.</source>
        <translation>Das Abonnement mit den Konten von Azure NetApp Files und den AKS-Clustern.</translation>
    </message>
    <message>
        <source>Service principal (client secret)</source>
        <translation>Dienstprinzipal (geheimer Clientschlüssel)</translation>
    </message>
    <message>
        <source>Azure CLI login (az login)</source>
        <translation>Anmeldung über die Azure CLI (az login)</translation>
    </message>
    <message>
        <source>Directory (tenant) id or domain</source>
        <translation>Verzeichnis-ID (Mandant) oder Domäne</translation>
    </message>
    <message>
        <source>Application (client) id</source>
        <translation>Anwendungs-ID (Client)</translation>
    </message>
    <message>
        <source>Show advanced settings</source>
        <translation>Erweiterte Einstellungen anzeigen</translation>
    </message>
    <message>
        <source>Microsoft Entra ID authority; change it for sovereign clouds or Azure Stack.</source>
        <translation>Autorität von Microsoft Entra ID; für souveräne Clouds oder Azure Stack ändern.</translation>
    </message>
    <message>
        <source>&amp;Subscription id:</source>
        <translation>&amp;Abonnement-ID:</translation>
    </message>
    <message>
        <source>Cre&amp;dentials:</source>
        <translation>Anmelde&amp;daten:</translation>
    </message>
    <message>
        <source>&amp;Tenant id:</source>
        <translation>&amp;Mandanten-ID:</translation>
    </message>
    <message>
        <source>C&amp;lient id:</source>
        <translation>&amp;Client-ID:</translation>
    </message>
    <message>
        <source>&amp;Authority URL:</source>
        <translation>A&amp;utoritäts-URL:</translation>
    </message>
    <message>
        <source>Kubeconfig in the keychain (from AKS)</source>
        <translation>Kubeconfig im Schlüsselbund (aus AKS)</translation>
    </message>
    <message>
        <source>No client secret stored</source>
        <translation>Kein geheimer Clientschlüssel gespeichert</translation>
    </message>
    <message>
        <source>Leave empty to keep the stored client secret</source>
        <translation>Leer lassen, um den gespeicherten geheimen Clientschlüssel zu behalten</translation>
    </message>
    <message>
        <source>Optional: the az login&apos;s default tenant</source>
        <translation>Optional: der Standardmandant von az login</translation>
    </message>
    <message>
        <source>A&amp;RM URL:</source>
        <translation>A&amp;RM-URL:</translation>
    </message>
    <message>
        <source>Client &amp;secret:</source>
        <translation>Geheimer Client&amp;schlüssel:</translation>
    </message>
    <message>
        <source>The service principal&apos;s client secret. Stored in the system keychain, never in the configuration file.</source>
        <translation>Der geheime Clientschlüssel des Dienstprinzipals. Im Schlüsselbund des Systems gespeichert, nie in der Konfigurationsdatei.</translation>
    </message>
    <message>
        <source>StorageGRID grid</source>
        <translation>StorageGRID-Grid</translation>
    </message>
    <message>
        <source>Optional, e.g. https://s3.datalake.example:10443</source>
        <translation>Optional, z. B. https://s3.datalake.example:10443</translation>
    </message>
    <message>
        <source>The grid&apos;s S3 endpoint for the dataset hub; empty = grid pages only.</source>
        <translation>Der S3-Endpunkt des Grids für den Datensatz-Hub; leer = nur Grid-Seiten.</translation>
    </message>
    <message>
        <source>S3 access key id of the tenant that holds the datasets.</source>
        <translation>S3-Zugriffsschlüssel-ID des Mandanten, der die Datensätze enthält.</translation>
    </message>
    <message>
        <source>Path-style addressing (host/bucket/key)</source>
        <translation>Pfad-Adressierung (host/bucket/key)</translation>
    </message>
    <message>
        <source>Off: virtual-hosted addressing (bucket.host/key), which needs DNS for every bucket.</source>
        <translation>Aus: Virtual-Hosted-Adressierung (bucket.host/key), die DNS für jeden Bucket erfordert.</translation>
    </message>
    <message>
        <source>e.g. datasets/*, sentiment</source>
        <translation>z. B. datasets/*, sentiment</translation>
    </message>
    <message>
        <source>Where datasets live, separated by commas: &quot;bucket/*&quot; = every top-level prefix is a dataset, &quot;bucket&quot; = the whole bucket, &quot;bucket/prefix/&quot; = that prefix.</source>
        <translation>Wo Datensätze liegen, durch Kommas getrennt: „bucket/*“ = jedes Präfix der obersten Ebene ist ein Datensatz, „bucket“ = der ganze Bucket, „bucket/prefix/“ = dieses Präfix.</translation>
    </message>
    <message>
        <source>S&amp;3 URL:</source>
        <translation>S&amp;3-URL:</translation>
    </message>
    <message>
        <source>S3 re&amp;gion:</source>
        <translation>S3-Re&amp;gion:</translation>
    </message>
    <message>
        <source>S3 access &amp;key:</source>
        <translation>S3-&amp;Zugriffsschlüssel:</translation>
    </message>
    <message>
        <source>S3 secret ke&amp;y:</source>
        <translation>Geheimer S3-&amp;Schlüssel:</translation>
    </message>
    <message>
        <source>&amp;Dataset roots:</source>
        <translation>&amp;Datensatz-Stammpfade:</translation>
    </message>
    <message>
        <source>No secret key stored</source>
        <translation>Kein geheimer Schlüssel gespeichert</translation>
    </message>
    <message>
        <source>Leave empty to keep the stored secret key</source>
        <translation>Leer lassen, um den gespeicherten geheimen Schlüssel zu behalten</translation>
    </message>
    <message>
        <source>Admin node &amp;URL:</source>
        <translation>Admin-Node-&amp;URL:</translation>
    </message>
    <message>
        <source>&amp;Poll grid and datasets every:</source>
        <translation>Grid und Datensätze abf&amp;ragen alle:</translation>
    </message>
    <message>
        <source>https://admin.datalake.example</source>
        <translation>https://admin.datalake.example</translation>
    </message>
    <message>
        <source>A grid administrator: reads grid health, alerts, tenants and usage.</source>
        <translation>Ein Grid-Administrator: liest Grid-Zustand, Warnmeldungen, Mandanten und Nutzung.</translation>
    </message>
    <message>
        <source>e.g. svm_ai/chest_xray, imagenet</source>
        <translation>z. B. svm_ai/chest_xray, imagenet</translation>
    </message>
    <message>
        <source>Volumes that are file datasets, separated by commas: &quot;svm/volume&quot; or &quot;volume&quot;. Their snapshots are the dataset&apos;s commits; caching one is a FlexClone.</source>
        <translation>Volumes, die Datei-Datasets sind, durch Kommas getrennt: „svm/volume“ oder „volume“. Ihre Snapshots sind die Commits des Datasets; einen zu cachen ist ein FlexClone.</translation>
    </message>
</context>
<context>
    <name>strata::views::SourcesPage</name>
    <message>
        <source>&lt;h3&gt;Add a source to get started&lt;/h3&gt;&lt;p&gt;Strata connects to your ONTAP clusters through their management interface.&lt;br&gt;Click &lt;b&gt;Add…&lt;/b&gt; and enter the cluster&apos;s URL and credentials; the password goes to the system keychain.&lt;/p&gt;&lt;p&gt;To look around first, start &lt;tt&gt;strata demo&lt;/tt&gt;.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Zum Start eine Quelle hinzufügen&lt;/h3&gt;&lt;p&gt;Strata verbindet sich über die Management-Schnittstelle mit Ihren ONTAP-Clustern.&lt;br&gt;Auf &lt;b&gt;Hinzufügen…&lt;/b&gt; klicken und URL und Anmeldedaten des Clusters eingeben; das Passwort wird im Schlüsselbund des Systems gespeichert.&lt;/p&gt;&lt;p&gt;Zum Ausprobieren zuerst &lt;tt&gt;strata demo&lt;/tt&gt; starten.&lt;/p&gt;</translation>
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
        <translation>Strata fragt sie nicht mehr ab, verwirft ihre Daten und löscht ihr gespeichertes Passwort. Am System selbst ändert sich nichts.</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>&lt;b&gt;Clusters in Azure&lt;/b&gt;</source>
        <translation>&lt;b&gt;Cluster in Azure&lt;/b&gt;</translation>
    </message>
    <message>
        <source>AKS clusters of your Azure subscriptions. Add one as a Kubernetes source to see its GPUs and jobs; its kubeconfig is stored in the system keychain.</source>
        <translation>AKS-Cluster der verbundenen Azure-Abonnements. Einen Cluster als Kubernetes-Quelle hinzufügen, um seine GPUs und Jobs zu sehen; seine Kubeconfig wird im Schlüsselbund des Systems gespeichert.</translation>
    </message>
    <message>
        <source>Add as &amp;Kubernetes source…</source>
        <translation>Als &amp;Kubernetes-Quelle hinzufügen…</translation>
    </message>
    <message>
        <source>Fetch the cluster&apos;s user kubeconfig and add the cluster as a Kubernetes source</source>
        <translation>Die Benutzer-Kubeconfig des Clusters abrufen und den Cluster als Kubernetes-Quelle hinzufügen</translation>
    </message>
    <message>
        <source>Already added as %1</source>
        <translation>Bereits als %1 hinzugefügt</translation>
    </message>
</context>
<context>
    <name>strata::views::StorageGridPage</name>
    <message>
        <source>Active alerts</source>
        <translation>Aktive Warnmeldungen</translation>
    </message>
    <message>
        <source>Resolved (last 7 days)</source>
        <translation>Behoben (letzte 7 Tage)</translation>
    </message>
    <message>
        <source>All alerts</source>
        <translation>Alle Warnmeldungen</translation>
    </message>
    <message>
        <source>&amp;Nodes</source>
        <translation>&amp;Nodes</translation>
    </message>
    <message>
        <source>&amp;Alerts</source>
        <translation>&amp;Warnmeldungen</translation>
    </message>
    <message>
        <source>&amp;Tenants and buckets</source>
        <translation>&amp;Mandanten und Buckets</translation>
    </message>
    <message>
        <source>StorageGRID %1</source>
        <translation>StorageGRID %1</translation>
    </message>
    <message>
        <source>API %1</source>
        <translation>API %1</translation>
    </message>
    <message>
        <source>%1 nodes connected, %2 down</source>
        <translation>%1 Nodes verbunden, %2 ausgefallen</translation>
    </message>
    <message>
        <source>alerts: %1 critical, %2 major, %3 minor</source>
        <translation>Warnmeldungen: %1 kritisch, %2 schwerwiegend, %3 geringfügig</translation>
    </message>
    <message>
        <source>ILM: %1</source>
        <translation>ILM: %1</translation>
    </message>
    <message>
        <source>%1 of %2 used</source>
        <translation>%1 von %2 belegt</translation>
    </message>
    <message>
        <source>No StorageGRID source has reported yet.</source>
        <translation>Noch keine StorageGRID-Quelle hat Daten geliefert.</translation>
    </message>
    <message>
        <source>Buckets of every tenant</source>
        <translation>Buckets aller Mandanten</translation>
    </message>
    <message>
        <source>Buckets of %1</source>
        <translation>Buckets von %1</translation>
    </message>
</context>
<context>
    <name>strata::views::ThroughputChart</name>
    <message>
        <source>MiB/s</source>
        <translation>MiB/s</translation>
    </message>
    <message>
        <source>Observed</source>
        <translation>Beobachtet</translation>
    </message>
    <message>
        <source>Cap</source>
        <translation>Obergrenze</translation>
    </message>
    <message>
        <source>Select a volume to see its throughput against its cap.</source>
        <translation>Ein Volume auswählen, um seinen Durchsatz im Vergleich zur Obergrenze zu sehen.</translation>
    </message>
    <message>
        <source>No throughput recorded for this volume in this period yet.</source>
        <translation>Für dieses Volume wurde in diesem Zeitraum noch kein Durchsatz aufgezeichnet.</translation>
    </message>
    <message>
        <source>collecting since %1</source>
        <translation>Daten seit %1</translation>
    </message>
    <message>
        <source>GiB/s</source>
        <translation>GiB/s</translation>
    </message>
</context>
<context>
    <name>strata::views::TriagePage</name>
    <message>
        <source>All systems</source>
        <translation>Alle Systeme</translation>
    </message>
    <message>
        <source>All severities</source>
        <translation>Alle Schweregrade</translation>
    </message>
    <message>
        <source>Critical</source>
        <translation>Kritisch</translation>
    </message>
    <message>
        <source>Errors and worse</source>
        <translation>Fehler und schlimmer</translation>
    </message>
    <message>
        <source>Warnings and worse</source>
        <translation>Warnungen und schlimmer</translation>
    </message>
    <message>
        <source>All categories</source>
        <translation>Alle Kategorien</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>Letzte 6 Stunden</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>Letzte 24 Stunden</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>Letzte 7 Tage</translation>
    </message>
    <message>
        <source>All time</source>
        <translation>Gesamter Zeitraum</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Projekt</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <source>Search title, message, object or source</source>
        <translation>Titel, Nachricht, Objekt oder Quelle durchsuchen</translation>
    </message>
    <message>
        <source>&amp;Go to</source>
        <translation>&amp;Gehe zu</translation>
    </message>
    <message>
        <source>Show the selected entry&apos;s volume, job, alert or source on its page</source>
        <translation>Volume, Job, Warnmeldung oder Quelle des ausgewählten Eintrags auf seiner Seite anzeigen</translation>
    </message>
    <message numerus="yes">
        <source>%Ln entry</source>
        <translation>
            <numerusform>%Ln Eintrag</numerusform>
            <numerusform>%Ln Einträge</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln entries</source>
        <translation>
            <numerusform>%Ln Eintrag</numerusform>
            <numerusform>%Ln Einträge</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 entries</source>
        <translation>%1 von %2 Einträgen</translation>
    </message>
</context>
<context>
    <name>strata::views::UpcomingChangesDialog</name>
    <message>
        <source>Upcoming level changes</source>
        <translation>Anstehende Servicelevel-Änderungen</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volume</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Change to</source>
        <translation>Ändern auf</translation>
    </message>
    <message>
        <source>Schedule</source>
        <translation>Zeitplan</translation>
    </message>
    <message>
        <source>No level changes are scheduled.</source>
        <translation>Es sind keine Servicelevel-Änderungen geplant.</translation>
    </message>
    <message>
        <source>&amp;Remove schedule…</source>
        <translation>Zeitplan &amp;entfernen…</translation>
    </message>
    <message>
        <source>Removes the schedule this change belongs to, with all its occurrences</source>
        <translation>Entfernt den Zeitplan, zu dem diese Änderung gehört, mit allen seinen Ausführungen</translation>
    </message>
    <message>
        <source>%1 (end of window)</source>
        <translation>%1 (Ende des Zeitfensters)</translation>
    </message>
    <message>
        <source>Remove schedule</source>
        <translation>Zeitplan entfernen</translation>
    </message>
    <message>
        <source>Remove schedule #%1 of %2?</source>
        <translation>Zeitplan #%1 von %2 entfernen?</translation>
    </message>
    <message>
        <source>None of its changes will run. Changes already made stay as they are.</source>
        <translation>Keine seiner Änderungen wird ausgeführt. Bereits vorgenommene Änderungen bleiben bestehen.</translation>
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
        <translation>Ein Volume auswählen, um Kapazitätsverlauf und Snapshots zu sehen.</translation>
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
        <translation>Das gesamte Volume auf den ausgewählten Snapshot zurücksetzen (SnapRestore)</translation>
    </message>
    <message>
        <source>Create a FlexClone volume from the selected snapshot</source>
        <translation>Ein FlexClone-Volume aus dem ausgewählten Snapshot erstellen</translation>
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
        <translation>
            <numerusform>%1 und %n weiteres</numerusform>
            <numerusform>%1 und %n weitere</numerusform>
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
        <translation>
            <numerusform>%1 %, %2 durch %Ln Snapshot belegt</numerusform>
            <numerusform>%1 %, %2 durch %Ln Snapshots belegt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 %, %2 used by %Ln snapshots</source>
        <translation>
            <numerusform>%1 %, %2 durch %Ln Snapshot belegt</numerusform>
            <numerusform>%1 %, %2 durch %Ln Snapshots belegt</numerusform>
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
    <message>
        <source>Capacity over time (up to 7 days)</source>
        <translation>Kapazität im Zeitverlauf (bis zu 7 Tage)</translation>
    </message>
</context>
<context>
    <name>strata::views::VolumesPage</name>
    <message>
        <source>Filter by name, SVM, source, QoS policy or junction path</source>
        <translation>Nach Name, SVM, Quelle, QoS-Richtlinie oder Junction-Pfad filtern</translation>
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
        <translation>
            <numerusform>%Ln Volume</numerusform>
            <numerusform>%Ln Volumes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln volumes</source>
        <translation>
            <numerusform>%Ln Volume</numerusform>
            <numerusform>%Ln Volumes</numerusform>
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
