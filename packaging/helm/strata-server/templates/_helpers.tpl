{{/* Name of the chart, overridable. */}}
{{- define "strata-server.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-qualified name used for every object. */}}
{{- define "strata-server.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "strata-server.selectorLabels" -}}
app.kubernetes.io/name: {{ include "strata-server.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "strata-server.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "strata-server.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* https when strata-server terminates TLS itself. */}}
{{- define "strata-server.scheme" -}}
{{- if .Values.tls.secretName }}HTTPS{{ else }}HTTP{{ end }}
{{- end }}

{{/* Whether any secret file is mounted. */}}
{{- define "strata-server.hasSecrets" -}}
{{- if or .Values.secrets (and .Values.existingSecret .Values.existingSecretKeys) }}true{{ end }}
{{- end }}
