<#
.SYNOPSIS
    Installs tabsight for the current Windows user.

.DESCRIPTION
    Creates a virtual environment (.venv beside the repository, or $env:TABSIGHT_VENV),
    installs this repository into it, then runs `tabsight install`, which registers the
    native host under HKCU for every Chromium-family browser found and prints the
    extension id, how to load the extension and the MCP client configuration.
    Nothing needs administrator rights.

.EXAMPLE
    powershell -ExecutionPolicy Bypass -File installers\install.ps1
#>
$ErrorActionPreference = 'Stop'

$Repo = Split-Path -Parent $PSScriptRoot
$Venv = if ($env:TABSIGHT_VENV) { $env:TABSIGHT_VENV } else { Join-Path $Repo '.venv' }
$VenvPython = Join-Path $Venv 'Scripts\python.exe'
$Tabsight = Join-Path $Venv 'Scripts\tabsight.exe'
$NeedPython = 'Python 3.10 or newer is needed: install it from https://www.python.org/downloads/ and run this script again.'

# Native programs report failure through their exit code, which $ErrorActionPreference ignores.
function Invoke-Checked {
    param([string]$Program, [string[]]$Arguments)
    & $Program @Arguments
    if ($LASTEXITCODE -ne 0) {
        throw "'$Program $($Arguments -join ' ')' failed with exit code $LASTEXITCODE"
    }
}

if (-not (Test-Path $VenvPython)) {
    # The py launcher picks the newest Python 3; a bare `python` may be the Store stub.
    if (Get-Command py -ErrorAction SilentlyContinue) {
        $Python = 'py'; $PythonArgs = @('-3')
    } elseif (Get-Command python -ErrorAction SilentlyContinue) {
        $Python = 'python'; $PythonArgs = @()
    } else {
        throw $NeedPython
    }
    & $Python @PythonArgs -c 'import sys; sys.exit(sys.version_info < (3, 10))'
    if ($LASTEXITCODE -ne 0) { throw $NeedPython }
    Write-Host "Creating the virtual environment $Venv"
    Invoke-Checked $Python ($PythonArgs + @('-m', 'venv', $Venv))
}

Write-Host "Installing tabsight from $Repo"
Invoke-Checked $VenvPython @('-m', 'pip', 'install', '--upgrade', '--quiet', $Repo)

Invoke-Checked $Tabsight @('install')

Write-Host ''
Write-Host 'Next steps:'
Write-Host '  1. Load the extension as printed above (chrome://extensions, Developer mode, Load unpacked).'
Write-Host '  2. Add the MCP configuration printed above to your client; it uses the full path'
Write-Host "     $Tabsight, so the virtual environment need not be on PATH."
Write-Host "  3. Check every link with: & '$Tabsight' doctor"
