; Agent Desk per-user installer (NSIS 3). Built by `python packaging/build.py windows`.
; No administrator rights: installs into %LOCALAPPDATA%\Programs\AgentDesk (a short path, far
; from the 260-character limit), a Start-menu entry for the current user, an uninstaller and
; the HKCU "Apps & features" entry, and (optional, on by default) the install folder on the
; user's PATH so that `agentdesk` works in cmd.exe and PowerShell. The bundle has two programs:
; agentdesk.exe (console: `agentdesk exec`, `--version`) and agentdesk-gui.exe (windowed: the
; Start-menu entry, no console flashes). Defines from build.py: VERSION, PAYLOAD (the onedir),
; OUTFILE, ICON.

Unicode true
ManifestDPIAware true
RequestExecutionLevel user
SetCompressor /SOLID lzma

!ifndef VERSION
  !error "VERSION is not defined (use packaging/build.py windows)"
!endif
!define APPNAME "Agent Desk"
!define EXE "agentdesk.exe"
!define GUI_EXE "agentdesk-gui.exe"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\AgentDesk"

Name "${APPNAME}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\AgentDesk"
InstallDirRegKey HKCU "Software\AgentDesk" "InstallDir"
Icon "${ICON}"
UninstallIcon "${ICON}"
VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${APPNAME}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "FileDescription" "${APPNAME} installer"
VIAddVersionKey "LegalCopyright" "Agent Desk developers (MIT)"

!include "MUI2.nsh"
!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_FINISHPAGE_RUN "$INSTDIR\${GUI_EXE}"
!include "WinMessages.nsh"
!include "WordFunc.nsh"
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Function .onInit
  SetShellVarContext current
FunctionEnd

Function un.onInit
  SetShellVarContext current
FunctionEnd

Section "Agent Desk" SecMain
  SectionIn RO
  ; An upgrade replaces the whole bundle: stale files from an older version never linger.
  RMDir /r "$INSTDIR\_internal"
  SetOutPath "$INSTDIR"
  File /r "${PAYLOAD}\*.*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\${APPNAME}.lnk" "$INSTDIR\${GUI_EXE}" "" "$INSTDIR\${GUI_EXE}" 0
  WriteRegStr HKCU "Software\AgentDesk" "InstallDir" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "${APPNAME}"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "Agent Desk developers"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${GUI_EXE}"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
SectionEnd

; The user's PATH (HKCU\Environment), never the machine's. A PATH longer than NSIS's string
; limit is left alone rather than written back cut short.
Section "Add to PATH (agentdesk in cmd.exe and PowerShell)" SecPath
  ReadRegStr $0 HKCU "Environment" "Path"
  StrLen $1 $0
  IntCmp $1 ${NSIS_MAX_STRLEN} path_too_long 0 path_too_long
  ${WordFind} "$0" "$INSTDIR" "E+1" $2
  IfErrors 0 path_done  ; already there
  StrCmp $0 "" 0 +3
    WriteRegExpandStr HKCU "Environment" "Path" "$INSTDIR"
    Goto path_changed
  WriteRegExpandStr HKCU "Environment" "Path" "$0;$INSTDIR"
  path_changed:
  WriteRegDWORD HKCU "Software\AgentDesk" "OnPath" 1
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
  Goto path_done
  path_too_long:
  DetailPrint "PATH is too long to change safely: add $INSTDIR to it by hand."
  path_done:
SectionEnd

Section "Uninstall"
  ReadRegDWORD $3 HKCU "Software\AgentDesk" "OnPath"
  IntCmp $3 1 0 unpath_done unpath_done
  ReadRegStr $0 HKCU "Environment" "Path"
  ${un.WordReplace} "$0" ";$INSTDIR" "" "+" $1
  ${un.WordReplace} "$1" "$INSTDIR;" "" "+" $1
  StrCmp $1 "$INSTDIR" 0 +2
    StrCpy $1 ""
  WriteRegExpandStr HKCU "Environment" "Path" "$1"
  SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=5000
  unpath_done:
  Delete "$SMPROGRAMS\${APPNAME}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\${EXE}"
  Delete "$INSTDIR\${GUI_EXE}"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINST_KEY}"
  DeleteRegKey HKCU "Software\AgentDesk"
SectionEnd
